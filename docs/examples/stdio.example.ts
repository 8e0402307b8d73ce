import { createApp, Tool } from '@mcpkit/core';
import { serveStdio } from '@mcpkit/stdio';

class Hello {
  @Tool({ description: 'Says hello' })
  hello(): string {
    return 'hello';
  }
}

const server = serveStdio(createApp({ name: 'hello', version: '1.0.0', providers: [Hello] }), {
  maxMessageBytes: 8 * 1024 * 1024, // longer lines are answered -32600 and skipped
});

// Resolves once stdin has ended and every request in flight has been answered.
void server.closed.then(() => process.stderr.write('bye\n'));
