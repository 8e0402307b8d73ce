import { clip } from '../errors/clip';
import { errorAnswer } from '../errors/error-answer';
import { InvalidRequestError } from '../errors/mcp-error';
import { isRequestId, type JsonRpcMessage, type JsonRpcResponse } from '../protocol/json-rpc';
import { METHOD } from '../protocol/methods';
import type { Frame, MessageBody, RequestFrame } from '../wire/frame';
import type { ReceiveOptions } from '../eras/era';
import { ERAS } from '../eras/eras';
import type { HandleAnswer, ServingChannel as Channel } from './channel';
import { errorResponse } from './error-response';
import { logRefused } from './log-refused';
import { answeredUnserved } from './request-line';
import { batchRefusal, serveBatch } from './serve-batch';
import { serveRequest } from './serve-request';

const NO_OPTIONS: ReceiveOptions = Object.freeze({});

/**
 * Serves one message (a classified frame, or a batch to be classified here) on `channel`: a
 * request runs through its era's codec (`serveRequest`: refusal, tracking, context, one answer,
 * its request line and trace), a notification cancels or reports progress, a response settles
 * what this side asked. The one way in for every transport (`dispatcher.handle`).
 */
export function handleMessage(body: Frame, channel: Channel, options?: ReceiveOptions): Promise<JsonRpcResponse | undefined>;
export function handleMessage(body: MessageBody, channel: Channel, options?: ReceiveOptions): Promise<HandleAnswer>;
export function handleMessage(body: MessageBody, channel: Channel, options: ReceiveOptions = NO_OPTIONS): Promise<HandleAnswer> {
  return Array.isArray(body) ? handleBatch(body, channel, options) : handleFrame(body, channel, options);
}

function handleFrame(frame: Frame, channel: Channel, options: ReceiveOptions): Promise<JsonRpcResponse | undefined> {
  switch (frame.kind) {
    case 'request': {
      const era = ERAS[frame.era];
      if (era.sessions && !channel.keepsSessions) {
        const refused = new InvalidRequestError(`${clip(frame.method)} belongs to a session; open one with initialize`);
        return unserved(frame, channel, options, errorAnswer(frame.id, refused, era.errorObject));
      }
      return serveRequest(era, frame as RequestFrame, channel, options);
    }
    case 'notification':
      if (!placed(frame, channel, options.routed === true)) channel.unplaced(frameMessage(frame), options.routed === true);
      return Promise.resolve(undefined);
    case 'response':
      if (!channel.settle(frame.response!)) channel.unplaced(frame.response as unknown as JsonRpcMessage, options.routed === true);
      return Promise.resolve(undefined);
    default:
      return unserved(frame, channel, options, errorAnswer(frame.id, frame.problem, ERAS[frame.era].errorObject));
  }
}

async function handleBatch(messages: unknown[], channel: Channel, options: ReceiveOptions): Promise<HandleAnswer> {
  const refused = batchRefusal(messages.length, channel.batchRefusal(), channel.app.settings.maxBatchLength, () => channel.logger);
  if (refused !== undefined) {
    // One error answers the batch (JSON-RPC), but each request in it whose id can be read still has its line.
    logRefused(options.logger ?? channel.logger, messages, options.transport ?? channel.transport, refused, undefined, options.logBindings);
    return errorResponse(null, refused);
  }
  return serveBatch(
    messages,
    options.era,
    (frame) => handleFrame(frame, channel, options),
    (frame, response) => unserved(frame, channel, options, response),
  );
}

function unserved(frame: Frame, channel: Channel, options: ReceiveOptions, response: JsonRpcResponse): Promise<JsonRpcResponse> {
  return answeredUnserved(options.logger ?? channel.logger, frame, options.transport ?? channel.transport, options.logBindings, response);
}

/**
 * Places a notification; false when it names a request this channel does not have (cancelled,
 * progress), or when the other instances serving its session must hear it too (a roots change
 * the client sent here: their sessions keep roots as well).
 */
function placed(frame: Frame, channel: Channel, routed: boolean): boolean {
  const { method, params } = frame;
  // Cancellation: stop the handler and send no response for it (utilities/cancellation).
  if (method === METHOD.CANCELLED && isRequestId(params.requestId))
    return channel.cancel(params.requestId, () => new Error(typeof params.reason === 'string' ? params.reason : 'cancelled by the client'));
  if (method === METHOD.PROGRESS) return channel.progress(params.progressToken);
  if (method === METHOD.ROOTS_LIST_CHANGED) {
    channel.notified(method, routed);
    return routed;
  }
  // notifications/initialized and unknown notifications need nothing.
  return true;
}

/** A notification frame as the message it was. */
function frameMessage(frame: Frame): JsonRpcMessage {
  return { jsonrpc: '2.0', method: frame.method!, params: frame.params } as JsonRpcMessage;
}
