import type { ClientOptions, HttpTarget, StdioTarget } from '@mcpkit/client';

/** The server to proxy: a command to spawn (stdio) or a Streamable HTTP endpoint. */
export type ProxyTarget = StdioTarget | HttpTarget;

/** A name (tools, prompts) or URI (resources, templates) to match: exactly, or by a pattern. */
export type ProxyMatcher = string | RegExp;

/** The timers the reconnect loop waits with: inject them in tests to drive time yourself. */
export interface ProxyTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Options of `proxy()`. */
export interface ProxyOptions {
  /** The app's name; default the remote server's `serverInfo.name`. */
  name?: string;
  /** The app's version; default the remote server's `serverInfo.version`. */
  version?: string;
  /** Offer only these tools, prompts (by name), resources and templates (by URI); default all. */
  include?: readonly ProxyMatcher[];
  /** Leave these out (after `include`); default none. */
  exclude?: readonly ProxyMatcher[];
  /**
   * The options of the client that talks to the remote (`era`, `timeoutMs`, `clientInfo` …).
   * `handlers` and `onError` are the proxy's own: questions of the remote are relayed to the
   * gateway's caller.
   */
  client?: Omit<ClientOptions, 'handlers' | 'onError'>;
  /**
   * The most items (tools, prompts, resources and templates together) mirrored from the remote;
   * past it the rest are not offered (told to `onError`). Default 10 000.
   */
  maxItems?: number;
  /** First wait before reconnecting to a remote that went away, doubled each attempt; default 500 ms. */
  reconnectDelayMs?: number;
  /** Longest wait between two attempts; default 30 000 ms. */
  maxReconnectDelayMs?: number;
  /** Attempts before giving up (the tools then stay, every call failing clearly); default Infinity. */
  maxReconnects?: number;
  /** Timers for the reconnect loop; default the global ones (unref'd so they keep no process alive). */
  timers?: ProxyTimers;
  /**
   * Told what failed out of any call (a lost connection, a failed re-list or reconnect, an item of
   * the remote left out), and the full error of a failed call, whose caller gets a short sentence.
   */
  onError?: (error: Error) => void;
}

/** True when `value` is kept by `include` and `exclude`. */
export function offered(value: string, options: Pick<ProxyOptions, 'include' | 'exclude'>): boolean {
  const matches = (matcher: ProxyMatcher) => (typeof matcher === 'string' ? matcher === value : matcher.test(value));
  if (options.include !== undefined && !options.include.some(matches)) return false;
  return !(options.exclude ?? []).some(matches);
}
