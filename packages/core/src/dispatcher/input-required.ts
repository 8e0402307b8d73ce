import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { InvalidParamsError } from '../errors/mcp-error';
import { isObject } from '../protocol/json-rpc';

const INPUT_REQUIRED: unique symbol = Symbol.for('mcpkit.input-required') as never;

/**
 * Thrown inside a handler on a 2026-07-28 request when it asks the client for something not yet
 * answered: the dispatcher turns it into an input-required result. Handlers never see it.
 * @internal
 */
export class InputRequiredSignal extends Error {
  readonly [INPUT_REQUIRED] = true;

  constructor() {
    super('input required');
  }

  static is(value: unknown): value is InputRequiredSignal {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[INPUT_REQUIRED] === true;
  }
}

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
  /** expiry, ms since the epoch */
  e: number;
}

const STATE_TTL_MS = 10 * 60_000;

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value ?? null)).digest('base64url');
}

/**
 * Signs and checks `requestState` (MRTR, protocol.md §7.2): HMAC-SHA256 over the answers so
 * far, the method, its target and a digest of its arguments, with an expiry. The secret is
 * per app; several instances share requests only when given the same `requestStateSecret`.
 */
export class RequestStateCodec {
  private readonly secret: Buffer;

  constructor(secret?: string) {
    this.secret = secret ? Buffer.from(secret) : randomBytes(32);
  }

  sign(method: string, target: string, args: unknown, answers: Record<string, unknown>): string {
    const payload: StatePayload = { m: method, t: target, h: digest(args), a: answers, e: Date.now() + STATE_TTL_MS };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${createHmac('sha256', this.secret).update(body).digest('base64url')}`;
  }

  /** The answers a state carries; `-32602` for a state that is forged, altered, expired or for another request. */
  verify(state: string, method: string, target: string, args: unknown): Record<string, unknown> {
    const invalid = () => new InvalidParamsError('Invalid requestState: send the request again without it');
    const dot = state.lastIndexOf('.');
    if (dot <= 0) throw invalid();
    const body = state.slice(0, dot);
    const expected = createHmac('sha256', this.secret).update(body).digest();
    const given = Buffer.from(state.slice(dot + 1), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    let payload: StatePayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as StatePayload;
    } catch {
      throw invalid();
    }
    if (payload.m !== method || payload.t !== target || payload.h !== digest(args) || !(payload.e > Date.now()) || !isObject(payload.a)) throw invalid();
    return payload.a;
  }
}
