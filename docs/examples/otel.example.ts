import { createApp, Tool } from '@mcpkit/core';
import { otel } from '@mcpkit/otel';

class Hello {
  @Tool({ description: 'Says hello' })
  hello(): string {
    return 'hello';
  }
}

// Once the OpenTelemetry SDK has started (it registers the global tracer and meter providers):
// a SERVER span per request, the duration histograms, trace ids on the log lines.
otel({ mode: 'native', captureArguments: false });

// `mcpkit start dist/hello.js --http` serves it; so do serveStdio(app) and serveHttp(app).
export const app = createApp({ name: 'hello', version: '1.0.0', providers: [Hello] });
