import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { Pool } from 'undici';

export type Message = Record<string, unknown>;

/** What a 2026-07-28 client puts in every request's `_meta`: no handshake, no session. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};

function withMeta(params: Message | undefined, modern: boolean): Message | undefined {
  return modern ? { ...params, _meta: MODERN_META } : params;
}

/** A way to send one JSON-RPC request and get its answer. */
export interface RpcClient {
  call(method: string, params?: Message): Promise<Message>;
  close(): Promise<void>;
}

/** Newline-delimited JSON over a child's stdio, ids correlated. */
export class StdioRpc implements RpcClient {
  private next = 1;
  private buffer = '';
  private readonly waiting = new Map<number, (message: Message) => void>();

  constructor(
    readonly child: ChildProcess,
    private readonly modern = false,
  ) {
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf('\n')) !== -1) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        const message = JSON.parse(line) as Message;
        const resolve = this.waiting.get(message.id as number);
        if (resolve) {
          this.waiting.delete(message.id as number);
          resolve(message);
        }
      }
    });
  }

  call(method: string, params?: Message): Promise<Message> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: withMeta(params, this.modern) })}\n`);
    });
  }

  notify(method: string): void {
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }

  async close(): Promise<void> {
    this.child.stdin!.end();
  }
}

/** The JSON-RPC answer in a body that is JSON or an SSE stream. */
function answerIn(body: string, contentType: string | undefined): Message {
  if (!contentType?.startsWith('text/event-stream')) return JSON.parse(body) as Message;
  for (const line of body.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (!data) continue;
    const message = JSON.parse(data) as Message;
    if ('result' in message || 'error' in message) return message;
  }
  throw new Error(`no answer in SSE body: ${body.slice(0, 200)}`);
}

/**
 * Streamable HTTP with keep-alive sockets; a session when the server issues one. Modern: the
 * 2026-07-28 headers (`Mcp-Method`, `Mcp-Name`) and `_meta` on every request, no session.
 */
export class HttpRpc implements RpcClient {
  private next = 1;
  private session: string | undefined;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 128 });

  constructor(
    private readonly url: string,
    private readonly modern = false,
    /** Sent with every request (a bearer token). */
    private readonly extraHeaders: Readonly<Record<string, string>> = {},
  ) {}

  call(method: string, params?: Message): Promise<Message> {
    return this.post({ jsonrpc: '2.0', id: this.next++, method, params: withMeta(params, this.modern) }).then((answer) => answer!);
  }

  notify(method: string): Promise<unknown> {
    return this.post({ jsonrpc: '2.0', method });
  }

  private post(message: Message, retried = false): Promise<Message | undefined> {
    const body = JSON.stringify(message);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'content-length': String(Buffer.byteLength(body)),
      'mcp-protocol-version': this.modern ? '2026-07-28' : '2025-11-25',
      ...this.extraHeaders,
    };
    if (this.modern) {
      const params = (message.params ?? {}) as Message;
      headers['mcp-method'] = String(message.method);
      const name = params.name ?? params.uri;
      if (typeof name === 'string') headers['mcp-name'] = name;
    }
    if (this.session) headers['mcp-session-id'] = this.session;
    return new Promise((resolve, reject) => {
      const req = request(this.url, { method: 'POST', headers, agent: this.agent }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          const sid = response.headers['mcp-session-id'];
          if (typeof sid === 'string') this.session = sid;
          if (response.statusCode === 202) return resolve(undefined);
          try {
            resolve(answerIn(text, response.headers['content-type']));
          } catch (error) {
            reject(error);
          }
        });
      });
      // A keep-alive socket the server closed as idle just as we reused it: Node's documented
      // race (http.ClientRequest.reusedSocket). Every bench call is idempotent: send it again, once.
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (req.reusedSocket && !retried && (error.code === 'ECONNRESET' || error.message === 'socket hang up')) resolve(this.post(message, true));
        else reject(error);
      });
      req.end(body);
    });
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }
}

/**
 * The same calls through undici (the HTTP client of Node's `fetch`, and of most Node MCP
 * clients): one session, requests spread over a pool of at most `connections` keep-alive
 * connections, one request at a time on each (undici's default, no pipelining).
 */
export class UndiciRpc implements RpcClient {
  private next = 1;
  private session: string | undefined;
  private readonly pool: Pool;
  private readonly path: string;

  constructor(url: string, connections: number) {
    const { origin, pathname } = new URL(url);
    this.path = pathname;
    this.pool = new Pool(origin, { connections, pipelining: 1 });
  }

  call(method: string, params?: Message): Promise<Message> {
    return this.post({ jsonrpc: '2.0', id: this.next++, method, params }).then((answer) => answer!);
  }

  notify(method: string): Promise<unknown> {
    return this.post({ jsonrpc: '2.0', method });
  }

  private async post(message: Message): Promise<Message | undefined> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    };
    if (this.session) headers['mcp-session-id'] = this.session;
    const response = await this.pool.request({ path: this.path, method: 'POST', headers, body: JSON.stringify(message) });
    const text = await response.body.text();
    const sid = response.headers['mcp-session-id'];
    if (typeof sid === 'string') this.session = sid;
    if (response.statusCode === 202) return undefined;
    const contentType = response.headers['content-type'];
    return answerIn(text, typeof contentType === 'string' ? contentType : undefined);
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

const running = new Set<ChildProcess>();

/** Counts a process the bench started among those `stopAllServers` kills. */
export function track(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
}

/** Kills every server still running (a failed figure leaves its servers behind). */
export function stopAllServers(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** Spawns a server process with piped stdio. */
export function spawnServer(args: string[], env: NodeJS.ProcessEnv, node = process.execPath): ChildProcess {
  const merged = { ...process.env, LOG_LEVEL: 'warn', ...env };
  const child = spawn(node, args, { env: merged, stdio: ['pipe', 'pipe', 'pipe'] });
  track(child);
  // stderr is a pipe someone reads, as under a real client: warnings show, request lines drain.
  if (merged.LOG_LEVEL === 'warn') child.stderr!.pipe(process.stderr, { end: false });
  else child.stderr!.resume();
  return child;
}
