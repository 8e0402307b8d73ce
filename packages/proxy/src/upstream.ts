import { unrefTimer } from '@mcpkit/core/transport';
import { McpClient, type ClientOptions, type McpClientError } from '@mcpkit/client';
import type { ProxyOptions, ProxyTarget, ProxyTimers } from './proxy-options';
import type { QuestionRelay } from './relay';

const DEFAULT_TIMERS: ProxyTimers = {
  setTimeout: (callback, ms) => unrefTimer(setTimeout(callback, ms)),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * The era spoken to the remote unless `client.era` says: the client's own choice (`auto`,
 * 2026-07-28 when the remote speaks it), for a stdio child too. The handshake era sends
 * capabilities and info once rather than in every request's `_meta` (which the client encodes
 * once per connection, so it saves little), but it ties no question of the remote to its call
 * and lets a remote keep one caller's roots for every caller: a gateway serves many callers, so
 * that is the caller's opt-in (`client: { era: 'legacy' }`).
 */
export function upstreamEra(_target: ProxyTarget, options: ProxyOptions): ClientOptions['era'] {
  return options.client?.era ?? 'auto';
}

/** What the upstream tells the proxy: the lists may have changed, a resource was updated. */
export interface UpstreamEvents {
  listsChanged(client: McpClient): Promise<void>;
  resourceUpdated(uri: string, client: McpClient): void;
}

/**
 * The connection to the remote: one `McpClient` at a time. When it closes, calls fail at once
 * (the client fails what waits), and a new one is opened after a wait that doubles each attempt;
 * once connected again the lists are read anew.
 */
export class Upstream {
  private current: McpClient | undefined;
  private attempt = 0;
  private timer: unknown;
  private stopped = false;
  private readonly timers: ProxyTimers;

  constructor(
    private readonly target: ProxyTarget,
    private readonly options: ProxyOptions,
    private readonly relay: QuestionRelay,
    private readonly events: UpstreamEvents,
  ) {
    this.timers = options.timers ?? DEFAULT_TIMERS;
  }

  /** The connected client, or undefined while the remote is away. */
  get client(): McpClient | undefined {
    return this.current;
  }

  /** Whether a reconnect is waiting to run. */
  get reconnecting(): boolean {
    return this.timer !== undefined;
  }

  /** Connects once; the first connection's failure is the caller's (`proxy()` rejects). */
  async connect(): Promise<McpClient> {
    const client = await McpClient.connect(this.target, {
      ...this.options.client,
      era: upstreamEra(this.target, this.options),
      capabilities: { ...this.options.client?.capabilities, elicitation: { form: {}, url: {} } },
      handlers: this.relay.handlers,
      onError: (error) => this.options.onError?.(error),
    });
    if (this.stopped) {
      await client.close();
      return client;
    }
    this.current = client;
    this.attempt = 0;
    client.on('notifications/tools/list_changed', () => void this.relist(client));
    client.on('notifications/prompts/list_changed', () => void this.relist(client));
    client.on('notifications/resources/list_changed', () => void this.relist(client));
    client.on('notifications/resources/updated', (params) => typeof params.uri === 'string' && this.events.resourceUpdated(params.uri, client));
    client.onClose((error) => this.lost(client, error));
    return client;
  }

  /** Stops reconnecting and closes the connection. */
  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    const client = this.current;
    this.current = undefined;
    await client?.close();
  }

  /** A call found the connection broken (an HTTP remote that went away): close it, and reconnect. */
  drop(client: McpClient, error: Error): void {
    if (this.current !== client) return;
    this.current = undefined;
    this.options.onError?.(error);
    void client.close().catch(() => undefined);
    if (!this.stopped) this.schedule();
  }

  private async relist(client: McpClient): Promise<void> {
    try {
      await this.events.listsChanged(client);
    } catch (error) {
      this.options.onError?.(error as Error);
    }
  }

  private lost(client: McpClient, error: McpClientError): void {
    if (this.current !== client) return;
    this.current = undefined;
    if (this.stopped) return;
    this.options.onError?.(error);
    this.schedule();
  }

  private schedule(): void {
    const max = this.options.maxReconnects ?? Number.POSITIVE_INFINITY;
    if (this.attempt >= max) return;
    const first = this.options.reconnectDelayMs ?? 500;
    const delay = Math.min(first * 2 ** this.attempt, this.options.maxReconnectDelayMs ?? 30_000);
    this.attempt += 1;
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      void this.retry();
    }, delay);
  }

  private async retry(): Promise<void> {
    if (this.stopped) return;
    try {
      const client = await this.connect();
      await this.relist(client);
    } catch (error) {
      this.options.onError?.(error as Error);
      this.schedule();
    }
  }
}
