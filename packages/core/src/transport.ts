/**
 * `@mcpkit/core/transport`: what a transport adapter needs (stdio, the HTTP core, the test
 * client) and an app author does not. Unstable: it changes with the adapters, in any release.
 *
 * @example
 * import { encodeMessage, readBody } from '@mcpkit/core/transport';
 * const connection = app.connect({ kind: 'stdio' });
 * const read = readBody(line);
 * const answer = read.ok ? await app.dispatcher.handle(read.body, connection) : read.response;
 * const text = answer === undefined ? undefined : encodeMessage(answer, limits);
 * if (text !== undefined) process.stdout.write(`${text}\n`);
 * @packageDocumentation
 */
import 'reflect-metadata';

export { Connection } from './dispatcher/connection';
export { errorResponse } from './dispatcher/error-response';
export type { ConnectionOptions } from './dispatcher/connection-options';
export { Dispatcher } from './dispatcher/dispatcher';
export type { Channel, HandleAnswer } from './dispatcher/channel';
export { readBody, type ReadBody } from './dispatcher/read-body';
export { writesToStdout } from './logging/writes-to-stdout';
export { hasDefaultLogger } from './server/default-logger';
export type { ReceiveOptions } from './eras/era';
export { classify } from './eras/classify';
export { logRefused } from './dispatcher/log-refused';
export type { Frame, RequestFrame, EraName, MessageBody } from './wire/frame';
export type { DeprecatedEraName } from './eras/era-name';
export { parseMessage, type ParsedFrame } from './wire/parse-message';
export { oversizedMessage } from './wire/oversized-message';
export { encodeMessage, DEFAULT_MAX_RESPONSE_BYTES, type EncodeLimits, type Outgoing } from './wire/encode-message';
export { AnswerPacer, DEFAULT_PROGRESS_GAP_MS } from './wire/answer-pacer';
export { MessageChannel, type MessageChannelOptions, type ChannelAnswer } from './wire/message-channel';
export { isObject, isRequestId } from './protocol/json-rpc';
export { RequestTable } from './dispatcher/request-table';
export { principalOf } from './auth/principal';
export { unrefTimer } from './types/unref-timer';
export { validatorRuntime } from './validation/validator-runtime';
export { toJsonRpcError } from './errors/to-json-rpc-error';
export { SUPPORTED_PROTOCOL_VERSIONS } from './protocol/protocol-versions';
export { hasModernClaim } from './eras/modern/read-request';
export { httpSseRefusal } from './eras/http-sse';
export { META as MODERN_META, SERVER_DISCOVER, SUBSCRIPTIONS_LISTEN, SUBSCRIPTIONS_ACKNOWLEDGED, SUBSCRIPTION_ID } from './eras/modern/meta';
export { isModernVersion, decodeHeader, protocolVersionHeader, checkModernHeaders, modernHttpStatus, modernHttp } from './eras/modern/http';
export type { HeaderValues } from './wire/header-values';
export { headerParamsOf } from './scanner/header-params';
export {
  isLegacyVersion,
  primesStreams,
  legacyHttpStatus,
  VERSION_WITHOUT_HEADER,
  BATCH_VERSION,
  legacyHttp,
  isServedVersion,
  sessionlessBatchError,
  sessionlessClient,
} from './eras/handshake/http';
export { HTTP_ERAS } from './eras/http-eras';
export { eraName } from './eras/era-name';
export { handshakeHttp, handshakeHttpStatus, isHandshakeVersion, statelessHttp } from './eras/deprecated-names';
export type { SessionSnapshot, ListenSnapshot } from './model/session-snapshot';
export {
  readOptions,
  optionTypeError,
  duration,
  isApp,
  assertApp,
  MAX_TIMER_MS,
  wrongValue,
  ruleEntries,
  resetOptionWarnings,
  type OptionTable,
  type OptionRule,
  type OptionAlias,
  type OptionsReader,
  type ReadOptions,
  type OptionTableOf,
  type DefaultedKeys,
  type AliasKeys,
  type NestedKeys,
  type ReadValue,
  type DurationSpec,
} from './validation/option-table';
