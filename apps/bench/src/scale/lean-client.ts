// The client side of pnpm bench:scale: what it takes to hold thousands of sessions, streams and
// listens open from one process, and nothing more (the SDK's client per session would measure
// the client). Raw HTTP on node:http: POSTs over a small keep-alive pool, each GET stream and
// listen on a socket of its own; every answer and every delivery is checked.
import { Agent, request, type IncomingMessage } from 'node:http';
import { MODERN_META, type Message } from '../clients';

const INITIALIZE = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench-scale', version: '1' } };
const UPDATED = 'notifications/resources/updated';
const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** The JSON-RPC messages in SSE text (its `data:` lines), or the one JSON body. */
function messagesIn(answer: Answer): Message[] {
  if (!String(answer.headers['content-type']).startsWith('text/event-stream')) return answer.body ? [JSON.parse(answer.body) as Message] : [];
  return answer.body
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '')
    .map((line) => JSON.parse(line.slice(5)) as Message);
}

/** Runs `task(i)` for i < count with at most `width` under way. */
export async function inParallel(count: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** Handshake-era sessions over a pool of keep-alive sockets. */
export class LeanSessions {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 16 });
  private next = 1;

  constructor(readonly url: string) {}

  /** `initialize` and `notifications/initialized`: the new session's id. */
  async open(): Promise<string> {
    const answer = await this.post({ jsonrpc: '2.0', id: this.next++, method: 'initialize', params: INITIALIZE });
    const sid = answer.headers['mcp-session-id'];
    const result = this.resultOf(answer, 'initialize');
    if (typeof sid !== 'string' || typeof result.protocolVersion !== 'string') throw new Error(`initialize opened no session: ${answer.body.slice(0, 300)}`);
    const initialized = await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sid);
    if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
    return sid;
  }

  /** `count` sessions, 16 opening at once. */
  async openMany(count: number): Promise<string[]> {
    const ids: string[] = new Array<string>(count);
    await inParallel(count, 16, async (i) => void (ids[i] = await this.open()));
    if (new Set(ids).size !== count) throw new Error('two sessions got the same id');
    return ids;
  }

  async subscribe(sid: string, uri: string): Promise<void> {
    const result = this.resultOf(
      await this.post({ jsonrpc: '2.0', id: this.next++, method: 'resources/subscribe', params: { uri } }, sid),
      'resources/subscribe',
    );
    if (Object.keys(result).length !== 0) throw new Error(`resources/subscribe answered ${JSON.stringify(result)}`);
  }

  /** An `echo` in the session: proves it is still alive. */
  async echo(sid: string, text: string): Promise<void> {
    const result = this.resultOf(
      await this.post({ jsonrpc: '2.0', id: this.next++, method: 'tools/call', params: { name: 'echo', arguments: { text } } }, sid),
      'echo',
    );
    const content = result.content as Array<{ text?: string }> | undefined;
    if (content?.[0]?.text !== text) throw new Error(`echo in session ${sid} answered ${JSON.stringify(result)}`);
  }

  /** Closes the pool's sockets: the sessions stay, idle, on the server. */
  close(): void {
    this.agent.destroy();
  }

  private resultOf(answer: Answer, what: string): Message {
    const message = messagesIn(answer).find((candidate) => 'result' in candidate || 'error' in candidate);
    if (answer.status !== 200 || !message || !message.result) throw new Error(`${what} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    return message.result as Message;
  }

  private post(message: Message, sid?: string): Promise<Answer> {
    const body = JSON.stringify(message);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    };
    if (sid) headers['mcp-session-id'] = sid;
    return new Promise((resolve, reject) => {
      const req = request(this.url, { method: 'POST', headers, agent: this.agent }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }
}

/**
 * Open streams (handshake-era GET streams or 2026-07-28 listens) that count the updates of one
 * URI each receives; `delivered(round)` resolves when every stream has heard `round` updates.
 */
export class Streams {
  private readonly open = new Set<IncomingMessage>();
  private readonly heard: number[] = [];
  private waiting: { round: number; resolve: (at: number) => void; reject: (error: Error) => void } | undefined;
  private complete = 0;

  constructor(
    private readonly url: string,
    private readonly uri: string,
  ) {}

  get size(): number {
    return this.heard.length;
  }

  /** The session's GET stream; resolves once its head arrived. */
  get(sid: string): Promise<void> {
    const headers = { accept: 'text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    return this.stream({ method: 'GET', headers }, undefined, false);
  }

  /** A 2026-07-28 `subscriptions/listen` of the URI; resolves once it is acknowledged. */
  listen(id: number): Promise<void> {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: { notifications: { resourceSubscriptions: [this.uri] }, _meta: MODERN_META },
    });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    };
    return this.stream({ method: 'POST', headers }, body, true);
  }

  /** When every stream has heard `round` updates: the `performance.now()` of the last delivery. */
  delivered(round: number, timeoutMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new Error(`${this.heard.filter((count) => count >= round).length} of ${this.size} streams heard update ${round} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting = { round, resolve: (at) => (clearTimeout(timer), resolve(at)), reject };
      this.complete = this.heard.filter((count) => count >= round).length;
      if (this.complete === this.size) this.waiting.resolve(performance.now());
    });
  }

  close(): void {
    for (const response of this.open) response.destroy();
    this.open.clear();
  }

  private stream(options: { method: string; headers: Record<string, string> }, body: string | undefined, acknowledged: boolean): Promise<void> {
    const index = this.heard.push(0) - 1;
    return new Promise((resolve, reject) => {
      // agent: false, a socket of its own: a stream holds its connection for as long as it lasts.
      const req = request(this.url, { ...options, agent: false }, (response) => {
        if (response.statusCode !== 200 || !String(response.headers['content-type']).startsWith('text/event-stream')) {
          response.resume();
          return reject(new Error(`${options.method} stream answered ${response.statusCode} ${String(response.headers['content-type'])}`));
        }
        this.open.add(response);
        if (!acknowledged) resolve();
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const event = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            for (const message of messagesIn({ status: 200, headers: response.headers, body: event })) {
              if (message.method === ACKNOWLEDGED) resolve();
              else if (message.method === UPDATED) this.onUpdate(index, message);
              else if ('error' in message) reject(new Error(`stream answered ${JSON.stringify(message)}`));
            }
          }
        });
        response.on('error', () => undefined);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  private onUpdate(index: number, message: Message): void {
    const uri = (message.params as { uri?: unknown } | undefined)?.uri;
    if (uri !== this.uri) return this.waiting?.reject(new Error(`a stream heard of ${String(uri)}, not ${this.uri}`));
    this.heard[index] += 1;
    if (this.waiting && this.heard[index] === this.waiting.round && ++this.complete === this.size) this.waiting.resolve(performance.now());
  }
}
