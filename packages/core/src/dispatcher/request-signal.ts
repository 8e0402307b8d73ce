/**
 * The abort signal of one request: aborted when the request is cancelled (the client, the
 * connection closing) or a deadline passes. Its AbortController is created on first read of
 * `signal`: most handlers never look, and an AbortController costs more than the rest of a
 * small call.
 */
export class RequestSignal {
  private controller: AbortController | undefined = undefined;
  private limited: AbortSignal | undefined = undefined;
  private reason: Error | undefined = undefined;
  // Told when `signal` aborts, without the signal being made (a proxy relays every call's cancellation).
  private listeners: Array<(reason: Error) => void> | undefined = undefined;

  get signal(): AbortSignal {
    if (this.limited) return this.limited;
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.reason) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  get cancelled(): boolean {
    return this.reason !== undefined;
  }

  /** Aborts `signal` (now, or when first read); only the first reason counts. */
  cancel(reason: Error): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller?.abort(reason);
    this.notify(reason);
  }

  /** Calls `listener` once when `signal` aborts (at once if it has), without making the signal; returns the function that stops it. */
  onAbort(listener: (reason: Error) => void): () => void {
    const reason = this.reason ?? (this.limited?.aborted ? (this.limited.reason as Error) : undefined);
    if (reason !== undefined) {
      listener(reason);
      return () => undefined;
    }
    (this.listeners ??= []).push(listener);
    return () => {
      const at = this.listeners?.indexOf(listener) ?? -1;
      if (at >= 0) this.listeners!.splice(at, 1);
    };
  }

  private notify(reason: Error): void {
    const listeners = this.listeners;
    this.listeners = undefined;
    for (const listener of listeners ?? []) listener(reason);
  }

  /** `signal` also aborts after `ms`, with `error()`; `expired` rejects then, until `clear` is called. */
  deadline(ms: number, error: () => Error): { expired: Promise<never>; clear: () => void } {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const reason = error();
        controller.abort(reason);
        this.notify(reason);
        reject(reason);
      }, ms);
    });
    // Nobody may be listening when the handler wins the race.
    expired.catch(() => undefined);
    this.limited = AbortSignal.any([this.signal, controller.signal]);
    return { expired, clear: () => clearTimeout(timer) };
  }
}
