import { DefinitionError, DefinitionErrorCode } from '../../errors/definition-error';
import { InvalidParamsError } from '../../errors/mcp-error';
import { isObject } from '../../protocol/json-rpc';
import { exceedsJsonBounds } from '../../validation/json-bounds';
import type { RequestStateStore } from '../../app/request-state-store';
import { nodeCrypto } from '../lazy-crypto';
import { APP_OPTIONS } from '../../app/app-options';
import type { RequestStates, RetryAnswers } from '../../model/request-states';

/** What a request state carries between rounds, signed so a client cannot forge or alter it. */
interface StatePayload {
  /** method */
  m: string;
  /** the tool or prompt name, or the resource URI */
  t: string;
  /** digest of the arguments the first round saw */
  h: string;
  /** answers collected so far, by key */
  a: Record<string, unknown>;
  /** the caller it was issued to (issuer and subject), when authenticated (A15, A16) */
  p?: string;
  /** expiry, ms since the epoch */
  e: number;
  /** the exchange: random, made at its first round and carried by each later state (one completion each) */
  x?: string;
}

const STATE_TTL_MS = 10 * 60_000;

/** How much a client may send back in an MRTR retry (the `createApp` options of the same names). */
export interface InputLimits {
  /** Longest `requestState` accepted, in characters (it grows with the answers it carries). */
  maxRequestStateBytes?: number;
  /** Largest `inputResponses`, in characters of its JSON, about. */
  maxInputResponsesBytes?: number;
  /** Deepest nesting of objects and arrays in one answer of `inputResponses`. */
  maxInputDepth?: number;
}

/** Defaults of `InputLimits`: form answers and sampling results fit many times over. */
export const DEFAULT_INPUT_LIMITS: Readonly<Required<InputLimits>> = Object.freeze({
  maxRequestStateBytes: APP_OPTIONS.maxRequestStateBytes.default,
  maxInputResponsesBytes: APP_OPTIONS.maxInputResponsesBytes.default,
  maxInputDepth: APP_OPTIONS.maxInputDepth.default,
});

const NO_ANSWERS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

function digest(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value ?? null);
  } catch {
    // Nested past the stack (RangeError): no honest digest exists, and it is the client's doing.
    throw new InvalidParamsError('The arguments nest too deeply to carry a requestState; send flatter arguments');
  }
  return nodeCrypto().createHash('sha256').update(text).digest('base64url');
}

function readLimit(limits: InputLimits, name: keyof InputLimits): number {
  const value = limits[name] ?? DEFAULT_INPUT_LIMITS[name];
  if (!(Number.isInteger(value) && value > 0)) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${name} ${String(value)} is not a positive integer.`, [
      `Give a bound such as ${DEFAULT_INPUT_LIMITS[name]}, or leave it out for the default.`,
    ]);
  }
  return value;
}

/**
 * Signs and checks `requestState` (MRTR, protocol.md §7.2): HMAC-SHA256 over the answers so
 * far, the method, its target and a digest of its arguments, with an expiry. The secret is
 * per app; several instances share requests only when given the same `requestStateSecret`.
 */
export class RequestStateCodec implements RequestStates {
  private readonly givenSecret: Buffer | undefined;
  private generatedSecret: Buffer | undefined = undefined;
  private readonly maxStateChars: number;
  private readonly responsesBounds: { maxDepth: number; maxChars: number };

  /** @throws DefinitionError when a limit is not a positive integer. */
  constructor(
    secret?: string,
    limits: InputLimits = {},
    /** Where completed exchanges are remembered (one completion each). */
    readonly store?: RequestStateStore,
  ) {
    this.givenSecret = secret ? Buffer.from(secret) : undefined;
    this.maxStateChars = readLimit(limits, 'maxRequestStateBytes');
    // One more level for the object of answers by key: the bound is per answer.
    this.responsesBounds = { maxDepth: readLimit(limits, 'maxInputDepth') + 1, maxChars: readLimit(limits, 'maxInputResponsesBytes') };
  }

  /**
   * The answers an MRTR retry brings: those its `requestState` carries (verified) and its
   * `inputResponses`. Both are bounded (size, depth) before anything recursive reads them;
   * `-32602` for one out of bounds, malformed, forged, expired or for another request.
   */
  answersOf(params: Record<string, unknown>, method: string, target: string, principal?: string): RetryAnswers {
    const { requestState, inputResponses } = params;
    let answers = NO_ANSWERS;
    let exchange: string | undefined;
    if (inputResponses !== undefined) {
      if (!isObject(inputResponses)) throw new InvalidParamsError('inputResponses must be an object of answers by key');
      const problem = exceedsJsonBounds(inputResponses, this.responsesBounds);
      if (problem?.kind === 'depth') {
        throw new InvalidParamsError(`inputResponses nest deeper than ${this.responsesBounds.maxDepth - 1} levels in one answer (maxInputDepth)`);
      }
      if (problem) throw new InvalidParamsError(`inputResponses exceed ${this.responsesBounds.maxChars} characters of JSON (maxInputResponsesBytes)`);
    }
    if (requestState !== undefined) {
      if (typeof requestState !== 'string') throw new InvalidParamsError('requestState must be the string the server sent');
      if (requestState.length > this.maxStateChars) {
        throw new InvalidParamsError(`requestState exceeds ${this.maxStateChars} characters (maxRequestStateBytes): send the request again without it`);
      }
      const payload = this.verify(requestState, method, target, params.arguments ?? null, principal);
      answers = payload.a;
      // A state signed before exchanges had ids stands for itself.
      exchange = typeof payload.x === 'string' ? payload.x : requestState.slice(requestState.lastIndexOf('.') + 1);
    }
    return { answers: inputResponses === undefined ? answers : { ...answers, ...(inputResponses as Record<string, unknown>) }, exchange };
  }

  /**
   * Takes the exchange for the round about to run, until every state of it has expired: `-32602`
   * when it completed already or a round of it runs now. Rejects with the store's own error
   * when the store cannot tell.
   */
  async claim(exchange: string): Promise<void> {
    if (this.store === undefined) return;
    const taken = this.store.claim(exchange, Date.now() + STATE_TTL_MS);
    if (!(taken instanceof Promise ? await taken : taken)) {
      throw new InvalidParamsError('requestState already used: its exchange completed, or a round of it is running; send the request again without it');
    }
  }

  /** Frees the exchange after a round that asked again or failed, so the exchange goes on. */
  async release(exchange: string): Promise<void> {
    await this.store?.release(exchange);
  }

  /** The app's own random key unless one was given, made on first use (no crypto at start-up). */
  private get secret(): Buffer {
    return this.givenSecret ?? (this.generatedSecret ??= nodeCrypto().randomBytes(32));
  }

  /** A state for the next round of `exchange` (a new exchange when undefined: the first round asked). */
  sign(method: string, target: string, args: unknown, answers: Record<string, unknown>, principal?: string, exchange?: string): string {
    const payload: StatePayload = {
      m: method,
      t: target,
      h: digest(args),
      a: answers,
      e: Date.now() + STATE_TTL_MS,
      x: exchange ?? nodeCrypto().randomBytes(16).toString('base64url'),
    };
    if (principal !== undefined) payload.p = principal;
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${nodeCrypto().createHmac('sha256', this.secret).update(body).digest('base64url')}`;
  }

  /** What a state carries; `-32602` for a state that is forged, altered, expired, for another request or another caller. */
  private verify(state: string, method: string, target: string, args: unknown, principal?: string): StatePayload {
    const invalid = () => new InvalidParamsError('Invalid requestState: send the request again without it');
    const dot = state.lastIndexOf('.');
    if (dot <= 0) throw invalid();
    const body = state.slice(0, dot);
    const expected = nodeCrypto().createHmac('sha256', this.secret).update(body).digest();
    const given = Buffer.from(state.slice(dot + 1), 'base64url');
    if (given.length !== expected.length || !nodeCrypto().timingSafeEqual(given, expected)) throw invalid();
    let payload: StatePayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as StatePayload;
    } catch {
      throw invalid();
    }
    if (payload.m !== method || payload.t !== target || payload.h !== digest(args) || !(payload.e > Date.now()) || !isObject(payload.a)) throw invalid();
    // Possessing a state handle is no credential: it answers only the caller it was issued to (A15).
    if (payload.p !== principal) throw invalid();
    return payload;
  }
}
