import { ClientCapabilityError } from '../../errors/client-errors';
import type { LogLevel } from '../../logging/log-levels';
import { isObject, type JsonRpcMessage } from '../../protocol/json-rpc';
import { METHOD } from '../../protocol/methods';
import type { ValidatorFactory } from '../../validation/validator-factory';
import type { ClientInfo } from '../../model/client-info';
import type { OutboundRequestOptions } from '../../model/outbound-request-options';
import type { Asker, ClientLink, Question } from '../client-link';
import type { SessionInfo } from '../../model/session-info';
import type { RunPlan } from '../era';
import { featureSince, hasFeature } from './features';
import { CALL_TOOL_RESULT_FIELDS, shapeForRevision } from './revision-shape';
import type { RequestFrame } from '../../wire/frame';
import { handshakeTasks } from './tasks';
import { nodeCrypto } from '../lazy-crypto';
import type { RootsCache } from '../roots-cache';

/** What the handshake link needs of the connection it serves. */
export interface HandshakeChannel {
  readonly clientInfo: ClientInfo;
  readonly session: SessionInfo;
  readonly isSessionless: boolean;
  readonly validators: ValidatorFactory;
  readonly logLevel: LogLevel | undefined;
  requestClient(
    method: string,
    params: Record<string, unknown>,
    via: ((message: JsonRpcMessage) => void) | undefined,
    options: OutboundRequestOptions,
  ): Promise<Record<string, unknown>>;
  notify(method: string, params?: Record<string, unknown>): void;
  /** The client's roots, kept for the session. */
  readonly rootsCache: RootsCache;
}

/**
 * A handshake-era request's way to its client: requests sent on the session (on the stream of the
 * request that asks when it has one), answers awaited with timeouts and cancellation. One per
 * session and client; it is also the run plan of the session's requests.
 */
export class HandshakeLink implements ClientLink, RunPlan {
  readonly client: ClientInfo;
  readonly progressMessages: boolean;
  readonly elicitationModes: boolean;
  // Before 2025-06-18 there is no elicitation: a client that declares it anyway is not asked (its
  // capability was dropped at initialize), and is told why in the revision's terms.
  private readonly elicitation: boolean;
  readonly tasks = handshakeTasks;
  // A session's requests never continue an input-required exchange.
  readonly exchange = undefined;
  private ownKey: string | undefined = undefined;

  constructor(private readonly channel: HandshakeChannel) {
    this.client = channel.clientInfo;
    this.progressMessages = hasFeature(this.client.protocolVersion, 'progressMessage');
    this.elicitationModes = hasFeature(this.client.protocolVersion, 'elicitationMode');
    this.elicitation = hasFeature(this.client.protocolVersion, 'elicitation');
  }

  get link(): ClientLink {
    return this;
  }

  /**
   * A result in the revision's shape: lists are precomputed per revision; a tool's result loses
   * the fields its revision lacks (`structuredContent` before 2025-06-18).
   */
  complete(result: Record<string, unknown>, frame: RequestFrame): Record<string, unknown> {
    return frame.method === METHOD.TOOLS_CALL ? shapeForRevision(result, CALL_TOOL_RESULT_FIELDS, this.client.protocolVersion) : result;
  }

  fail(): undefined {
    return undefined;
  }

  /**
   * Tasks belong to the session that created them: its id on HTTP, a key of this connection on
   * stdio; without a session (stateless HTTP), to whoever holds the task id.
   */
  get taskOwner(): string | undefined {
    if (this.channel.isSessionless) return undefined;
    return this.channel.session.id ?? (this.ownKey ??= nodeCrypto().randomUUID());
  }

  get session(): SessionInfo {
    return this.channel.session;
  }

  get validators(): ValidatorFactory {
    return this.channel.validators;
  }

  /** The session's roots: asked once, kept until the client says they changed. */
  get rootsCache(): RootsCache {
    return this.channel.rootsCache;
  }

  logThreshold(): LogLevel | undefined {
    return this.channel.logLevel;
  }

  requireCapability(capability: 'sampling' | 'elicitation' | 'roots', method: string): void {
    this.requireSession(method);
    if (capability === 'elicitation' && !this.elicitation) throw this.beforeRevision('elicitation', method);
    if (!isObject(this.client.capabilities[capability])) {
      throw new ClientCapabilityError(`The client did not declare the ${capability} capability, so ${method} cannot be sent`);
    }
  }

  ask(question: Question, options: OutboundRequestOptions, asker: Asker): Promise<Record<string, unknown>> {
    return this.channel.requestClient(question.method, question.params, asker.send, { signal: asker.signal, ...options });
  }

  async askUrl(
    message: string,
    url: string,
    _key: string | undefined,
    options: OutboundRequestOptions,
    asker: Asker,
  ): Promise<{ action: 'accept' | 'decline' | 'cancel'; elicitationId: string }> {
    this.requireSession(METHOD.ELICITATION_CREATE);
    if (!this.elicitationModes) throw this.beforeRevision(this.elicitation ? 'URL elicitation' : 'elicitation', METHOD.ELICITATION_CREATE);
    const elicitation = this.client.capabilities.elicitation;
    if (!isObject(elicitation) || !isObject(elicitation.url)) {
      throw new ClientCapabilityError('The client did not declare URL elicitation (capabilities.elicitation.url)');
    }
    const elicitationId = nodeCrypto().randomUUID();
    const result = await this.channel.requestClient(METHOD.ELICITATION_CREATE, { mode: 'url', message, elicitationId, url }, asker.send, {
      signal: asker.signal,
      ...options,
    });
    const action = result.action === 'accept' || result.action === 'decline' ? result.action : 'cancel';
    return { action, elicitationId };
  }

  completeElicitation(elicitationId: string): void {
    this.channel.notify(METHOD.ELICITATION_COMPLETE, { elicitationId });
  }

  async ping(options: OutboundRequestOptions, asker: Asker): Promise<void> {
    this.requireSession(METHOD.PING);
    await this.channel.requestClient(METHOD.PING, {}, asker.send, { signal: asker.signal, ...options });
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.channel.notify(method, params);
  }

  /** The handshake revisions mirror no argument into a header. */
  checkArgumentHeaders(): void {}

  /** What a request the negotiated revision does not have answers: the revision is why, whatever the client declared. */
  private beforeRevision(what: 'elicitation' | 'URL elicitation', method: string): ClientCapabilityError {
    const since = featureSince(what === 'elicitation' ? 'elicitation' : 'elicitationMode');
    return new ClientCapabilityError(
      `The negotiated protocol revision ${this.client.protocolVersion} has no ${what} (it arrived in ${since}), so ${method} cannot be sent`,
    );
  }

  /**
   * Stateless HTTP cannot reach the client, whatever it declared: say so, rather than blame a
   * capability (a stateless request does not even know the client's capabilities).
   */
  private requireSession(method: string): void {
    if (this.channel.isSessionless) {
      throw new ClientCapabilityError(
        `This server runs without sessions (stateless HTTP), so it cannot send ${method} to the client. Use 2026-07-28, where the question travels as an input-required result, or a server with sessions.`,
      );
    }
  }
}
