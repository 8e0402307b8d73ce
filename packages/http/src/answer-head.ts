import type { Logger } from '@mcpkit/core';
import type { HttpResult } from './http-result';
import type { ListenSlot } from './open-listens';

/**
 * What the binding awaits of one POST: settled by the first of `respond` (a stream opened; the
 * work goes on writing to it) and the work's own end (`ended`, `failed`), which also frees a
 * listen's slot. It holds nothing of the request, so a stream that lasts keeps no body alive.
 */
export class AnswerHead {
  readonly promise: Promise<HttpResult>;
  private resolve!: (result: HttpResult) => void;
  private reject!: (error: unknown) => void;
  private responded = false;

  constructor(
    private readonly logger: Logger,
    private readonly listen: ListenSlot | undefined,
  ) {
    this.promise = new Promise<HttpResult>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** The answer's head is known (a stream opened, or the work ended). */
  readonly respond = (result: HttpResult): void => {
    if (this.responded) return;
    this.responded = true;
    this.resolve(result);
  };

  /** The work ended with its answer. */
  readonly ended = (result: HttpResult): void => {
    this.listen?.release();
    this.respond(result);
  };

  /** The work failed: the binding's error, unless a stream already answered (then only logged). */
  readonly failed = (error: unknown): void => {
    this.listen?.release();
    if (this.responded) {
      this.logger.error({ err: error }, 'MCP endpoint failed');
      return;
    }
    this.responded = true;
    this.reject(error);
  };
}
