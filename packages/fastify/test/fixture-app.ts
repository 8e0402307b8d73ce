import { ArrayUnique, IsBoolean, IsInt, IsObject, IsOptional, IsString, Min } from 'class-validator';
import pino from 'pino';
import { createApp, Field, Prompt, Resource, Tool, type AppOptions, type McpApp, type RequestContext, type RequestId } from '@mcpkit/core';

class EchoInput {
  @IsString()
  text: string;
}

class TaggedInput {
  // Published as `uniqueItems: true` over objects: the case ajv compared pair by pair.
  @ArrayUnique()
  @IsObject({ each: true })
  items: Array<Record<string, unknown>>;
}

class StepsInput {
  @IsInt()
  @Min(1)
  steps: number;

  @IsInt()
  @Min(0)
  delayMs: number;

  // The SDK client handles notifications a microtask after responses: a pause before returning
  // lets a test that counts progress see the last one.
  @IsOptional()
  @IsInt()
  @Min(0)
  settleMs?: number;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export const cancelled: RequestId[] = [];

class RouteInput {
  @Field({ header: 'Region' })
  @IsString()
  region: string;

  @Field({ header: 'Priority' })
  @IsOptional()
  @IsInt()
  priority?: number;

  @Field({ header: 'Verbose' })
  @IsOptional()
  @IsBoolean()
  verbose?: boolean;
}

class FixtureTools {
  @Tool({ description: 'Routes on arguments mirrored into Mcp-Param-* headers' })
  route(input: RouteInput) {
    return `${input.region}/${String(input.priority)}/${String(input.verbose)}`;
  }

  @Tool({ description: 'Echoes its text' })
  echo(input: EchoInput, ctx: RequestContext) {
    return `${input.text}|${ctx.session?.id ? 'session' : 'stateless'}`;
  }

  @Tool({ description: 'Counts distinct items' })
  tagged(input: TaggedInput) {
    return `${input.items.length} distinct`;
  }

  @Tool({ description: 'Reports progress steps, then returns' })
  async steps(input: StepsInput, ctx: RequestContext) {
    for (let i = 1; i <= input.steps; i++) {
      await sleep(input.delayMs, ctx.signal);
      if (ctx.signal.aborted) {
        cancelled.push(ctx.requestId);
        return 'aborted';
      }
      ctx.progress(i, input.steps, `step ${i}`);
    }
    if (input.settleMs) await sleep(input.settleMs, ctx.signal);
    return `done ${input.steps}`;
  }

  @Tool({ description: 'Lets go of the connection, then answers', input: null })
  async polling(_input: unknown, ctx: RequestContext) {
    const released = ctx.releaseConnection();
    await sleep(150);
    ctx.progress(1, 1, 'after the break');
    return `released=${released}`;
  }

  @Resource({ uri: 'fixture://hello', mimeType: 'text/plain' })
  hello() {
    return 'hello';
  }

  @Prompt()
  hi() {
    return 'hi';
  }
}

export function fixtureApp(logger: pino.Logger = pino({ level: 'silent' }), options: Partial<AppOptions> = {}): McpApp {
  return createApp({ name: 'fixture', version: '1.0.0', providers: [FixtureTools], logger, ...options });
}

export const ACCEPT_BOTH = 'application/json, text/event-stream';

/** A POST to an MCP endpoint with the headers a client sends. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** Opens a session with a raw POST; returns its id. */
export async function openSession(url: string, protocolVersion = '2025-11-25'): Promise<string> {
  const response = await post(url, { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion } });
  const id = response.headers.get('mcp-session-id');
  await response.text();
  if (!id) throw new Error(`no session id (status ${response.status})`);
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id, 'mcp-protocol-version': protocolVersion }).then((r) =>
    r.text(),
  );
  return id;
}

/** Reads an SSE body into its events (comments dropped). */
export function parseSse(text: string): Array<{ id?: string; event?: string; data: string; retry?: string }> {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.split('\n').every((line) => line.startsWith(':')))
    .map((block) => {
      const event: { id?: string; event?: string; data: string; retry?: string } = { data: '' };
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const field = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') event.data += value;
        else if (field === 'id' || field === 'event' || field === 'retry') event[field] = value;
      }
      return event;
    });
}
