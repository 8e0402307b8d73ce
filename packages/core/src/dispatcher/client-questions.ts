import { ClientRequestError } from '../errors/client-errors';
import { clipJson } from '../errors/clip';
import { ToolError } from '../errors/tool-error';
import { isObject } from '../protocol/json-rpc';
import type { ContentBlock } from '../protocol/mcp-types';
import { METHOD } from '../protocol/methods';
import type { InputParser } from '../validation/validator-factory';
import type { OutboundRequestOptions } from '../model/outbound-request-options';

// What a handler asks its client (`ctx.sample`, `ctx.elicit`, `ctx.roots`): the questions' options
// and params, and how an answer is read.

/** The answer to a form elicitation: the content is validated against the requested schema. */
export type ElicitResult<T> = { action: 'accept'; content: T } | { action: 'decline' } | { action: 'cancel' };

/** What `ctx.sample` sends: `sampling/createMessage` params (a string is one user message). */
export interface SamplingRequest {
  messages: Array<{ role: 'user' | 'assistant'; content: ContentBlock | Record<string, unknown> }>;
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: Record<string, unknown>;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The client's `sampling/createMessage` answer. */
export interface SamplingResult {
  role: 'user' | 'assistant';
  content: ContentBlock | ContentBlock[];
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

/**
 * Options of a question to the client. `key` names it on stateless (2026-07-28) requests, the key
 * of `inputRequests` / `inputResponses`; by default questions are numbered in the order asked.
 */
export type AskOptions = OutboundRequestOptions & {
  key?: string;
  /**
   * In a tool that runs as a task: ask before the task exists. On 2026-07-28 the question is an
   * input-required round of the `tools/call` itself, and the task starts once it is answered; where
   * the client's revision cannot do that, it is asked inside the task like any other.
   */
  beforeTask?: boolean;
};

const ELICIT_ACTIONS: readonly string[] = ['accept', 'decline', 'cancel'];

const isBlock = (value: unknown): boolean => isObject(value) && typeof value.type === 'string';

/**
 * A `sampling/createMessage` answer of the right shape: a role and content blocks (one or a list).
 * `model` is not required: clients that leave it out are common, and a handler can do without it.
 */
export function isSamplingResult(answer: Record<string, unknown>): boolean {
  const { role, content } = answer;
  return (role === 'user' || role === 'assistant') && (Array.isArray(content) ? content.every(isBlock) : isBlock(content));
}

/** A root the client exposes (`roots/list`). */
export interface Root {
  uri: string;
  name?: string;
}

/** `sampling/createMessage` params: a string is one user message, of at most `maxTokens` (1000 unless given). */
export function samplingParams(request: string | SamplingRequest, maxTokens: number | undefined): Record<string, unknown> {
  return typeof request === 'string'
    ? { messages: [{ role: 'user', content: { type: 'text', text: request } }], maxTokens: maxTokens ?? 1000 }
    : { ...request };
}

/** An `elicitation/create` answer of the right shape: one of the three actions. */
export function isElicitAnswer(answer: Record<string, unknown>): boolean {
  return ELICIT_ACTIONS.includes(answer.action as string);
}

/**
 * A form elicitation's outcome: an accepted answer's content validated by `parse` (the form
 * asked `message`), a decline or a cancel as it is.
 *
 * @throws ClientRequestError for an unknown action, ToolError for content that breaks the form
 */
export async function elicitOutcome<T>(answer: Record<string, unknown>, parse: InputParser, message: string): Promise<ElicitResult<T>> {
  const action = answer.action;
  if (action === 'decline' || action === 'cancel') return { action };
  if (action !== 'accept') throw new ClientRequestError(METHOD.ELICITATION_CREATE, 0, `unknown action ${clipJson(action)}`);
  let outcome = parse(isObject(answer.content) ? { ...answer.content } : {});
  if (outcome instanceof Promise) outcome = await outcome;
  if (!outcome.ok)
    throw new ToolError(`The answer to "${message}" does not match the requested form:\n${outcome.problems.map((problem) => `- ${problem}`).join('\n')}`);
  return { action: 'accept', content: outcome.value as T };
}
