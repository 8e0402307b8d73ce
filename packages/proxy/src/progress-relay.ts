import type { Progress } from '@mcpkit/client';

/**
 * Passes the remote's progress to the caller at most once per turn of the event loop, the latest
 * update winning: a remote that floods progress costs the caller a few notifications, and the
 * proxy holds one update per call, however many arrive.
 */
export class ProgressRelay {
  private latest: Progress | undefined;
  private scheduled = false;

  constructor(private readonly send: (update: Progress) => void) {}

  readonly update = (progress: Progress): void => {
    this.latest = progress;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  };

  /** Sends what waits now (the call is about to answer: its last progress goes before its result). */
  flush(): void {
    const update = this.latest;
    this.latest = undefined;
    if (update !== undefined) this.send(update);
  }
}
