import { ClientRequestError } from '../errors/client-errors';
import { clipJson } from '../errors/clip';
import { ToolError } from '../errors/tool-error';
import { isObject } from '../protocol/json-rpc';
import { METHOD } from '../protocol/methods';
import type { InputParser } from '../validation/validator-factory';
import type { ElicitResult, SamplingRequest } from '../model/client-questions';

// How the questions a handler asks its client (`ctx.sample`, `ctx.elicit`, `ctx.roots`) are sent
// and how an answer is read; their types are in model/client-questions.ts.

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
