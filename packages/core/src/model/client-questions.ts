import type { ContentBlock } from '../protocol/mcp-types';
import type { OutboundRequestOptions } from './outbound-request-options';

// What a handler asks its client (`ctx.sample`, `ctx.elicit`, `ctx.roots`): the questions' options,
// params and answers as handlers see them.

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

/** A root the client exposes (`roots/list`). */
export interface Root {
  uri: string;
  name?: string;
}
