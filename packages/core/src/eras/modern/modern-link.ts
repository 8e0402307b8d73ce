import { principalOf } from '../../auth/principal';
import { ClientCapabilityError } from '../../errors/client-errors';
import { InvalidParamsError, MissingRequiredClientCapabilityError } from '../../errors/mcp-error';
import { clipJson } from '../../errors/clip';
import type { LogLevel } from '../../logging/log-levels';
import { isObject } from '../../protocol/json-rpc';
import { METHOD } from '../../protocol/methods';
import type { ValidatorFactory } from '../../validation/validator-factory';
import { resolveCacheHint, UNCACHEABLE, type WireCacheHint } from '../../results/cache-hints';
import type { ClientInfo } from '../../model/client-info';
import type { ContextFacts } from '../../model/context-facts';
import type { HeaderParam } from '../../scanner/header-params';
import { checkArgumentHeaders } from './http';
import type { RequestFrame } from '../../wire/frame';
import type { ArgumentTransport, Asker, ClientLink, Question } from '../client-link';
import type { EraApp, RunPlan } from '../era';
import { InputRequiredSignal } from '../../model/input-required-signal';
import { modernTasks } from './tasks';
import type { ModernRequest } from './read-request';
import { inputRequiredResult, MRTR_METHODS, shapeModernResult } from './results';

const ELICIT_ACTIONS: readonly string[] = ['accept', 'decline', 'cancel'];

/** The questions of one round that have no answer yet, by key: what the input-required result lists. */
export type MissingAnswers = Record<string, { method: string; params: Record<string, unknown> }>;

/**
 * A modern request's way to its client: no requests, only questions. Each question takes the
 * answer the client sent with this retry; without one, it is noted and the round ends
 * (`InputRequiredSignal`), so code before a question runs again on each round. It is also the
 * request's run plan: results get the era's shape, an unanswered question an input-required one.
 */
export class ModernLink implements ClientLink, RunPlan {
  readonly session = undefined;
  readonly progressMessages = true;
  readonly elicitationModes = true;
  readonly tasks = modernTasks;
  // No identity yet on stateless requests: a task id (a random UUID) is the capability to reach it.
  readonly taskOwner = undefined;
  readonly client: ClientInfo;
  /** What the handler asked and has no answer to yet, by key. */
  readonly missing: MissingAnswers = {};
  private asked = 0;

  readonly validators: ValidatorFactory;

  constructor(
    private readonly request: ModernRequest,
    private readonly app: EraApp,
    private readonly channel: { notify(method: string, params?: Record<string, unknown>): void },
  ) {
    this.client = request.client;
    this.validators = app.settings.validators;
  }

  get link(): ClientLink {
    return this;
  }

  /** A later round of an input-required exchange: its state was verified. */
  get continues(): boolean {
    return this.request.exchange !== undefined;
  }

  /** The input-required exchange this retry continues (its state was verified); undefined on a first round. */
  get exchange(): string | undefined {
    return this.request.exchange;
  }

  complete(result: Record<string, unknown>, frame: RequestFrame, ctx: ContextFacts): Record<string, unknown> {
    // A handler whose own try/catch swallowed the signal still ends the round: an answer built
    // without the client's input is not the answer the handler would give with it.
    if (this.asksPending() && MRTR_METHODS.has(frame.method)) throw new InputRequiredSignal();
    return shapeModernResult(result, this.app.infoMeta, this.cacheHint(frame, ctx));
  }

  fail(error: unknown, frame: RequestFrame, ctx: ContextFacts): Record<string, unknown> | undefined {
    if (!(InputRequiredSignal.is(error) || this.asksPending()) || !MRTR_METHODS.has(frame.method)) return undefined;
    // The handler asked the client something: end the round, carrying the answers so far.
    const requestState = this.app.settings.requestState.sign(
      frame.method,
      String(frame.target ?? ''),
      frame.params.arguments ?? null,
      this.request.answers,
      principalOf(ctx.auth),
      this.request.exchange,
    );
    return inputRequiredResult(this.missing, requestState, this.app.infoMeta);
  }

  /** The cache hint of a result: per resource, else per method; none for retries' answers. */
  private cacheHint(frame: RequestFrame, ctx: ContextFacts): WireCacheHint | undefined {
    const hint = this.app.settings.cacheHints.get(frame.method);
    if (!hint) return undefined;
    // The answer depends on what the user just said: nobody should keep it.
    if (frame.params.requestState !== undefined || frame.params.inputResponses !== undefined) return UNCACHEABLE;
    return resolveCacheHint(ctx.cacheHint(), hint);
  }

  /** Whether the handler asked something this round has no answer to. */
  asksPending(): boolean {
    for (const _key in this.missing) return true;
    return false;
  }

  logThreshold(): LogLevel | undefined {
    return this.request.logLevel;
  }

  requireCapability(capability: 'sampling' | 'elicitation' | 'roots'): void {
    // A JSON-RPC error the client can act on: declare the capability and retry.
    if (!isObject(this.client.capabilities[capability])) throw new MissingRequiredClientCapabilityError(capability);
  }

  async ask(question: Question): Promise<Record<string, unknown>> {
    return this.answerTo(this.keyFor(question.key, question.kind), question.method, question.params, question.usable);
  }

  async askUrl(message: string, url: string, key: string | undefined): Promise<{ action: 'accept' | 'decline' | 'cancel'; elicitationId: string }> {
    const elicitation = this.client.capabilities.elicitation;
    if (!isObject(elicitation) || !isObject(elicitation.url)) throw new MissingRequiredClientCapabilityError('elicitation.url', { elicitation: { url: {} } });
    const id = this.keyFor(key, 'elicitation');
    const result = this.answerTo(id, METHOD.ELICITATION_CREATE, { mode: 'url', message, url }, (answer) => ELICIT_ACTIONS.includes(answer.action as string));
    return { action: result.action as 'accept' | 'decline' | 'cancel', elicitationId: id };
  }

  /** The modern era has no such notification (nor a stream for it): the retry's result says it all. */
  completeElicitation(): void {}

  ping(_options: unknown, _asker: Asker): Promise<void> {
    return Promise.reject(
      new ClientCapabilityError(`${METHOD.PING} cannot be sent on a ${this.client.protocolVersion} request: servers send no requests there`),
    );
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.channel.notify(method, params);
  }

  /** Over HTTP the `Mcp-Param-*` headers mirror the arguments the tool marks (transports, "Request Headers"); stdio has no headers. */
  checkArgumentHeaders(params: readonly HeaderParam[], args: Record<string, unknown>, transport: ArgumentTransport): void {
    if (transport.kind === 'http' && transport.headers !== undefined) checkArgumentHeaders(transport.headers, args, params);
  }

  /** The key of the next question: the same on every round. */
  private keyFor(key: string | undefined, kind: string): string {
    this.asked += 1;
    return key ?? `${kind}-${this.asked}`;
  }

  private answerTo(
    key: string,
    method: string,
    params: Record<string, unknown>,
    usable: (answer: Record<string, unknown>) => boolean,
  ): Record<string, unknown> {
    const answer = this.request.answers[key];
    if (answer !== undefined) {
      if (isObject(answer) && usable(answer)) return answer;
      // Present but of the wrong shape: the spec answers malformed inputResponses with an error.
      throw new InvalidParamsError(`inputResponses[${clipJson(key)}] is not a valid answer to ${method}`);
    }
    this.missing[key] = { method, params };
    throw new InputRequiredSignal();
  }
}
