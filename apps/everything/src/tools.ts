import { audio, embeddedResource, Field, image, text, Tool, type RequestContext } from '@mcpkit/core';
import { IsBoolean, IsInt, IsOptional, IsString } from 'class-validator';
import { JSON_SCHEMA_2020_12, PNG_BASE64, WAV_BASE64 } from './fixtures';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

class HeaderInput {
  @Field({ description: 'Mirrored into Mcp-Param-Region', header: 'Region' })
  @IsString()
  region: string;

  @Field({ description: 'Mirrored into Mcp-Param-Priority', header: 'Priority' })
  @IsOptional()
  @IsInt()
  priority?: number;

  @Field({ description: 'Mirrored into Mcp-Param-Verbose', header: 'Verbose' })
  @IsOptional()
  @IsBoolean()
  verbose?: boolean;
}

/** The conformance tools the framework can serve today. */
export class ConformanceTools {
  @Tool({ name: 'test_simple_text', description: 'Tests simple text content response' })
  simpleText(): string {
    return 'This is a simple text response for testing.';
  }

  @Tool({ name: 'test_image_content', description: 'Tests image content response' })
  imageContent() {
    return image(PNG_BASE64, 'image/png');
  }

  @Tool({ name: 'test_audio_content', description: 'Tests audio content response' })
  audioContent() {
    return audio(WAV_BASE64, 'audio/wav');
  }

  @Tool({ name: 'test_embedded_resource', description: 'Tests embedded resource content response' })
  embedded() {
    return embeddedResource({ uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' });
  }

  @Tool({ name: 'test_multiple_content_types', description: 'Tests response with multiple content types (text, image, resource)' })
  mixed() {
    return [
      text('Multiple content types test:'),
      image(PNG_BASE64, 'image/png'),
      embeddedResource({ uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) }),
    ];
  }

  @Tool({ name: 'test_tool_with_progress', description: 'Tests tool that reports progress notifications', input: null })
  async withProgress(_input: unknown, ctx: RequestContext): Promise<string> {
    for (const step of [0, 50, 100]) {
      ctx.progress(step, 100, `Completed step ${step} of 100`);
      if (step < 100) await sleep(50, ctx.signal);
    }
    return String(ctx.progressToken ?? 0);
  }

  @Tool({ name: 'test_timeout', description: 'Sleeps past its 100 ms timeout and is cancelled', timeoutMs: 100, input: null })
  async timeout(_input: unknown, ctx: RequestContext): Promise<string> {
    await sleep(10_000, ctx.signal);
    return ctx.signal.aborted ? 'cancelled' : 'slept';
  }

  @Tool({
    name: 'test_reconnection',
    description:
      'Tests SSE stream disconnection and client reconnection (SEP-1699): the server closes the stream mid-call and the result arrives after the client reconnects',
    input: null,
  })
  async reconnection(_input: unknown, ctx: RequestContext): Promise<string> {
    ctx.releaseConnection();
    await sleep(100, ctx.signal);
    return 'Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.';
  }

  @Tool({ name: 'test_error_handling', description: 'Tests error response handling' })
  errorHandling(): never {
    throw new Error('This tool intentionally returns an error for testing');
  }

  @Tool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)',
    inputSchema: JSON_SCHEMA_2020_12,
  })
  jsonSchema(input: Record<string, unknown>): string {
    return `JSON Schema 2020-12 tool called with: ${JSON.stringify(input)}`;
  }

  @Tool({ name: 'test_x_mcp_header', description: 'Arguments mirrored into Mcp-Param-* headers (x-mcp-header)' })
  xMcpHeader(input: HeaderInput): string {
    return `region ${input.region}, priority ${String(input.priority)}, verbose ${String(input.verbose)}`;
  }
}
