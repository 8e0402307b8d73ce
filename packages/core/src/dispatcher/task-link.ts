import { isObject } from '../protocol/json-rpc';
import type { LogLevel } from '../logging/log-levels';
import { METHOD } from '../protocol/methods';
import type { ClientInfo } from '../model/client-info';
import type { OutboundRequestOptions } from '../model/outbound-request-options';
import type { RootsCache } from '../eras/roots-cache';
import type { ArgumentTransport, Asker, ClientLink, Question } from '../eras/client-link';
import type { SessionInfo } from '../model/session-info';
import type { TaskDialect } from '../eras/task-dialect';
import type { ValidatorFactory } from '../validation/validator-factory';
import type { HeaderParam } from '../scanner/header-params';

const ELICIT_ACTIONS: readonly string[] = ['accept', 'decline', 'cancel'];

/** What a task's link needs of the task it serves. */
export interface TaskQuestions {
  /** Still before the task exists: questions marked `beforeTask` go to the request's own rounds. */
  readonly beforeCreation: boolean;
  /** Creates the task now (a question that must be asked inside it came first); resolves once it is stored. */
  createNow(): Promise<void>;
  /** Parks a question in the task's `inputRequests` until the client answers it. */
  park(
    key: string | undefined,
    kind: string,
    method: string,
    params: Record<string, unknown>,
    usable: Question['usable'],
    signal: AbortSignal,
  ): Promise<Record<string, unknown>>;
  /** Runs `ask` while the task says `input_required` (a request to the client is out). */
  whileAsking<T>(ask: () => Promise<T>): Promise<T>;
  /** Sends a notification tied to the task. */
  notify(method: string, params?: Record<string, unknown>): void;
}

/**
 * The link of a handler that runs as a task: the request's own link, except that questions are
 * the task's (`input_required`), by the era's way of asking inside a task.
 */
export class TaskLink implements ClientLink {
  constructor(
    private readonly inner: ClientLink,
    private readonly task: TaskQuestions,
  ) {}

  get client(): ClientInfo {
    return this.inner.client;
  }

  get session(): SessionInfo | undefined {
    return this.inner.session;
  }

  get rootsCache(): RootsCache | undefined {
    return this.inner.rootsCache;
  }

  get validators(): ValidatorFactory {
    return this.inner.validators;
  }

  get progressMessages(): boolean {
    return this.inner.progressMessages;
  }

  get elicitationModes(): boolean {
    return this.inner.elicitationModes;
  }

  get tasks(): TaskDialect {
    return this.inner.tasks;
  }

  get taskOwner(): string | undefined {
    return this.inner.taskOwner;
  }

  logThreshold(): LogLevel | undefined {
    return this.inner.logThreshold();
  }

  requireCapability(capability: 'sampling' | 'elicitation' | 'roots', method: string): void {
    this.inner.requireCapability(capability, method);
  }

  async ask(question: Question, options: OutboundRequestOptions, asker: Asker): Promise<Record<string, unknown>> {
    if (this.task.beforeCreation) {
      if (question.beforeTask === true && this.inner.tasks.roundsBeforeTask) return this.inner.ask(question, options, asker);
      await this.task.createNow();
    }
    if (this.inner.tasks.parksQuestions) return this.task.park(question.key, question.kind, question.method, question.params, question.usable, asker.signal);
    return this.task.whileAsking(() => this.inner.ask(question, options, asker));
  }

  async askUrl(
    message: string,
    url: string,
    key: string | undefined,
    options: OutboundRequestOptions,
    asker: Asker,
  ): Promise<{ action: 'accept' | 'decline' | 'cancel'; elicitationId: string }> {
    if (this.task.beforeCreation) await this.task.createNow();
    if (!this.inner.tasks.parksQuestions) return this.task.whileAsking(() => this.inner.askUrl(message, url, key, options, asker));
    const id = key ?? `elicitation-url-${url.length}`;
    const answer = await this.task.park(
      id,
      'elicitation',
      METHOD.ELICITATION_CREATE,
      { mode: 'url', message, url },
      (value) => ELICIT_ACTIONS.includes(value.action as string),
      asker.signal,
    );
    const action = isObject(answer) && (answer.action === 'accept' || answer.action === 'decline') ? answer.action : 'cancel';
    return { action, elicitationId: id };
  }

  completeElicitation(elicitationId: string): void {
    this.inner.completeElicitation(elicitationId);
  }

  ping(options: OutboundRequestOptions, asker: Asker): Promise<void> {
    return this.inner.ping(options, asker);
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.task.notify(method, params);
  }

  checkArgumentHeaders(params: readonly HeaderParam[], args: Record<string, unknown>, transport: ArgumentTransport): void {
    this.inner.checkArgumentHeaders(params, args, transport);
  }
}
