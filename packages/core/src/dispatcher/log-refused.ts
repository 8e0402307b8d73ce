import { errorAnswer } from '../errors/error-answer';
import { isLevelEnabled, type Logger } from '../logging/logger';
import { monotonicMs } from '../logging/monotonic-ms';
import type { TransportInfo } from '../model/transport-info';
import { logAnswered } from './request-line';
import type { Frame, MessageBody } from '../wire/frame';
import { classify } from '../eras/classify';
import { ERAS } from '../eras/eras';

/**
 * The request lines of the requests refused after they were read (an HTTP header that
 * disagrees with the body, a session that is missing or unknown, a batch over a rate limit, a
 * batch refused as a whole): one per request of `body` (a frame, or a batch's elements) whose id
 * could be read, answered `error`, with who called, as if the core had answered it. `outcome`
 * overrides the one the error gives (`rate_limited`); `logBindings` are the transport's own
 * fields (an HTTP session's id). Costs one level check when info is off.
 *
 * @example
 * logRefused(logger, message, transport, new InvalidRequestError('Missing Mcp-Session-Id header'));
 */
export function logRefused(
  logger: Logger,
  body: MessageBody,
  transport: TransportInfo,
  error: unknown,
  outcome?: string,
  logBindings?: Readonly<Record<string, unknown>>,
): void {
  if (!isLevelEnabled(logger, 'info')) return;
  const started = monotonicMs();
  const frames: Frame[] = Array.isArray(body) ? body.map((message) => classify(message, undefined, true)) : [body as Frame];
  for (const frame of frames) {
    const { id } = frame;
    if (id === null || (frame.kind !== 'request' && frame.kind !== 'invalid')) continue;
    const line = { id, method: frame.method, target: frame.target, meta: frame.meta };
    logAnswered(logger, line, transport, logBindings, errorAnswer(id, error, ERAS[frame.era].errorObject), started, outcome);
  }
}
