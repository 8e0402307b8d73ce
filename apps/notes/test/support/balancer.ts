/** One request as the balancer saw it. */
export interface Routed {
  /** HTTP method. */
  method: string;
  /** The JSON-RPC method of a POST's message (or `response` for an answer), when it carried one. */
  rpc: string | undefined;
  /** The instance (index into the origins) it went to. */
  to: number;
  /** Its `Last-Event-ID` (a resumption), if any. */
  lastEventId?: string;
  /** Its status, once answered (undefined while pending or when the connection failed). */
  status?: number;
}

/** Picks the instance of a request: an index into the balancer's origins, or undefined for round robin. */
export type Chooser = (request: { method: string; rpc: string | undefined }) => number | undefined;

/**
 * A round-robin load balancer without a proxy: the `fetch` given to the SDK's
 * `StreamableHTTPClientTransport` rewrites each request's origin to the next live instance
 * (A, B, A, B …), as a plain balancer without session affinity does. A test may steer requests
 * (`choose`) to put a stream or a handler on one instance, and take an instance out (`down`) as
 * a health check would after a crash.
 */
export class Balancer {
  readonly log: Routed[] = [];
  /** The events of every GET stream (id and data), in arrival order, as the client read them. */
  readonly getEvents: Array<{ id: string | undefined; data: string }> = [];
  private turn = 0;
  private readonly dead = new Set<number>();
  choose: Chooser | undefined;

  constructor(private readonly origins: string[]) {}

  /** The instance's origin (`http://127.0.0.1:<port>`). */
  origin(index: number): string {
    return this.origins[index];
  }

  /** Sends nothing more to `index` (it died); `up` brings it back under another origin when it restarts. */
  down(index: number): void {
    this.dead.add(index);
  }

  up(index: number, origin: string): void {
    this.origins[index] = origin;
    this.dead.delete(index);
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const method = (init?.method ?? 'GET').toUpperCase();
    const rpc = rpcOf(init?.body);
    const to = this.pick(method, rpc);
    const lastEventId = new Headers(init?.headers).get('last-event-id') ?? undefined;
    const routed: Routed = { method, rpc, to, ...(lastEventId ? { lastEventId } : {}) };
    this.log.push(routed);
    const target = new URL(url.pathname + url.search, this.origins[to]);
    const response = await fetch(target, init);
    routed.status = response.status;
    if (method !== 'GET' || !response.body || !response.headers.get('content-type')?.includes('text/event-stream')) return response;
    const [mine, theirs] = response.body.tee();
    void this.readIds(mine);
    return new Response(theirs, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  private async readIds(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let pending = '';
    let event: { id: string | undefined; data: string } = { id: undefined, data: '' };
    try {
      for await (const chunk of body) {
        pending += decoder.decode(chunk, { stream: true });
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          if (line.startsWith('id:')) event.id = line.slice(3).trim();
          else if (line.startsWith('data:')) event.data += line.slice(5).trim();
          else if (line === '' || line === '\r') {
            if (event.data !== '') this.getEvents.push(event);
            event = { id: undefined, data: '' };
          }
        }
      }
    } catch {
      // The connection broke (an instance died): the client's copy sees it too.
    }
  }

  private pick(method: string, rpc: string | undefined): number {
    const chosen = this.choose?.({ method, rpc });
    if (chosen !== undefined) return chosen;
    for (let tries = 0; tries < this.origins.length; tries += 1) {
      const index = this.turn++ % this.origins.length;
      if (!this.dead.has(index)) return index;
    }
    throw new Error('no live instance behind the balancer');
  }
}

function rpcOf(body: unknown): string | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const message = JSON.parse(body) as { method?: unknown; id?: unknown };
    if (typeof message.method === 'string') return message.method;
    return message.id !== undefined ? 'response' : undefined;
  } catch {
    return undefined;
  }
}
