import { request } from 'node:http';

export const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'scale-out-test', version: '1' } },
});

const BASE = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request, answered in full within `timeoutMs`. */
export function send(url: string, method: string, headers: Record<string, string>, body?: string, timeoutMs = 10_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...BASE, ...headers }, agent: false, timeout: timeoutMs }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (data += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Opens a session on `url`; resolves to its id. */
export async function initialize(url: string): Promise<string> {
  const answer = await send(url, 'POST', {}, INIT);
  if (answer.status !== 200) throw new Error(`initialize answered ${answer.status}: ${answer.body}`);
  const id = answer.headers['mcp-session-id'] as string;
  const initialized = await send(
    url,
    'POST',
    { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  );
  if (initialized.status !== 202) throw new Error(`initialized answered ${initialized.status}`);
  return id;
}

/** A JSON-RPC message POSTed on a session; resolves to the answer (the JSON body, or the last SSE message's). */
export async function rpc(url: string, session: string, message: Record<string, unknown>): Promise<Answer & { json?: Record<string, unknown> }> {
  const answer = await send(url, 'POST', { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }, JSON.stringify({ jsonrpc: '2.0', ...message }));
  let json: Record<string, unknown> | undefined;
  if (String(answer.headers['content-type']).startsWith('application/json')) json = JSON.parse(answer.body) as Record<string, unknown>;
  else if (String(answer.headers['content-type']).startsWith('text/event-stream')) {
    const events = parseEvents(answer.body).filter((e) => e.data !== '');
    if (events.length > 0) json = JSON.parse(events[events.length - 1].data) as Record<string, unknown>;
  }
  return { ...answer, json };
}

export interface SseEvent {
  id?: string;
  data: string;
}

export function parseEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    if (block.trim() === '' || block.split('\n').every((line) => line.startsWith(':'))) continue;
    const event: SseEvent = { data: '' };
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) event.id = line.slice(4);
      else if (line.startsWith('data: ')) event.data = line.slice(6);
      else if (line === 'data:') event.data = '';
    }
    events.push(event);
  }
  return events;
}

/** An open SSE response: the events so far, a wait for more, and a close. */
export interface OpenStream {
  status: number;
  events: SseEvent[];
  /** Everything received, comments included. */
  text: string;
  /** Messages (events with data), parsed. */
  messages(): Array<Record<string, unknown>>;
  /** Resolves once `check` holds (rejects after `timeoutMs`). */
  until(check: (stream: OpenStream) => boolean, timeoutMs?: number): Promise<void>;
  ended: boolean;
  close(): void;
}

/** A GET (or POST) whose answer is an SSE stream, kept open. */
export function openStream(url: string, method: string, headers: Record<string, string>, body?: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...BASE, ...headers }, agent: false }, (res) => {
      let buffer = '';
      const stream: OpenStream = {
        status: res.statusCode ?? 0,
        events: [],
        text: '',
        ended: false,
        messages: () => stream.events.filter((e) => e.data !== '').map((e) => JSON.parse(e.data) as Record<string, unknown>),
        until: async (check, timeoutMs = 5_000) => {
          const deadline = Date.now() + timeoutMs;
          while (!check(stream)) {
            if (Date.now() > deadline) throw new Error(`stream condition not met within ${timeoutMs} ms; events: ${JSON.stringify(stream.events)}`);
            await new Promise((r) => setTimeout(r, 10));
          }
        },
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        stream.text += chunk;
        buffer += chunk;
        const end = buffer.lastIndexOf('\n\n');
        if (end === -1) return;
        stream.events.push(...parseEvents(buffer.slice(0, end + 2)));
        buffer = buffer.slice(end + 2);
      });
      res.on('end', () => (stream.ended = true));
      res.on('error', () => (stream.ended = true));
      resolve(stream);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export const SESSION_HEADERS = (session: string): Record<string, string> => ({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
