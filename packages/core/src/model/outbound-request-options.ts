/** Timing of one server-to-client request. */
export interface OutboundRequestOptions {
  /** Give up (and cancel) after this long without an answer or progress (default 60 s). */
  timeoutMs?: number;
  /** Give up after this long whatever progress says (default 10 min). */
  maxTotalTimeoutMs?: number;
  /** Cancel when this aborts (the request that asked is cancelled). */
  signal?: AbortSignal;
}
