/** A progress notification the server sent for a request. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** Per-call options of every client method. */
export interface CallOptions {
  /** Aborting it cancels the request (the server is told, as the era and transport say) and rejects the call. */
  signal?: AbortSignal;
  /** Longest wait for the answer in ms (default: the client's `timeoutMs`, 60 000); then the request is cancelled. */
  timeoutMs?: number;
  /** Start the timeout again whenever progress arrives (default: the client's `resetTimeoutOnProgress`, false). */
  resetTimeoutOnProgress?: boolean;
  /** With `resetTimeoutOnProgress`: the longest the call may last however much progress comes, in ms (default: the client's `maxTotalTimeoutMs`, 600 000). */
  maxTotalTimeoutMs?: number;
  /** Asks the server for progress (`_meta.progressToken`) and receives each notification. */
  onProgress?: (progress: Progress) => void;
  /** Extra `_meta` of the request (the era's own keys and the progress token are added). */
  _meta?: Record<string, unknown>;
  /**
   * Anything of the caller's: the handlers of the server's requests made for this call get it
   * back (`context.call.tag`): a proxy relays them to the caller the call came from.
   */
  tag?: unknown;
}
