import { clip } from '../errors/clip';
import { InvalidParamsError, McpError } from '../errors/mcp-error';
import { METHOD } from '../protocol/methods';
import { optionalArguments, requireString } from '../model/read-params';
import { ToolError } from '../errors/tool-error';
import { ToolTimeoutError } from '../errors/client-errors';
import { InputRequiredSignal } from '../model/input-required-signal';
import { isObject } from '../protocol/json-rpc';
import type { CallToolResult } from '../protocol/mcp-types';
import { isCallToolResult, toCallToolResult, toolErrorResult, structuredResult, Unsendable } from '../results/tool-result';
import { contentListProblem } from '../results/content-problem';
import type { ToolDefinition } from '../scanner/definitions';
import type { HandlerContext } from './handler-context';
import type { Pipeline } from '../pipeline/compile-pipeline';
import { InvalidArgumentsSignal } from '../pipeline/invalid-arguments';
import { offersViews } from './view-tools';

function invalidArguments(tool: ToolDefinition, problems: string[]): CallToolResult {
  return toolErrorResult(`Invalid arguments for tool ${tool.name}:\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
}

function failed(tool: ToolDefinition, ctx: HandlerContext, error: unknown): CallToolResult {
  // Deliberate wire errors (e.g. a URL elicitation requirement) stay JSON-RPC errors, and a
  // question for the client ends the round (2026-07-28 input-required result).
  if (McpError.isMcpError(error) || InputRequiredSignal.is(error)) throw error;
  if (ToolError.isToolError(error)) return toolErrorResult(error.message);
  // A handler that rejects once its request was cancelled (by its client, its client leaving, a
  // task cancelled) stops as asked: no fault of the tool, and no client may fill the error log.
  if (ctx.isCancelled) ctx.logger.debug({ err: error, tool: tool.name }, 'tool handler ended by the cancellation of its request');
  else ctx.logger.error({ err: error, tool: tool.name }, 'tool handler threw');
  return toolErrorResult(`Tool ${tool.name} failed with an internal error; details are in the server log.`);
}

// A bug of the tool's author, not something the model can fix: the details go to the log only.
function unsendable(tool: ToolDefinition, ctx: HandlerContext, problem: string): CallToolResult {
  ctx.logger.error({ tool: tool.name, problem }, 'tool result cannot be sent');
  return toolErrorResult(`Tool ${tool.name} produced a result that cannot be sent; details are in the server log.`);
}

function unstructured(tool: ToolDefinition, ctx: HandlerContext, value: unknown): CallToolResult {
  const result = toCallToolResult(value);
  return result instanceof Unsendable ? unsendable(tool, ctx, result.problem) : result;
}

const NO_STRUCTURED_CONTENT =
  'a result with content but no structuredContent: return the output object itself (it becomes structuredContent, and its JSON the text block), or { content, structuredContent }';

/**
 * Whether a value with a `content` array is the tool's output rather than a finished result: its
 * output schema has a top-level `content` field (a page of lines, say) and the value carries no
 * `structuredContent` nor `isError`, which no finished result of a tool with an output could lack.
 */
function isOwnOutput(tool: ToolDefinition, value: CallToolResult): boolean {
  if (value.structuredContent !== undefined || value.isError !== undefined) return false;
  const properties = tool.entry.outputSchema?.properties;
  return isObject(properties) && properties.content !== undefined;
}

/** A result that does not match the tool's output schema: the problems go to the log only. */
function mismatch(tool: ToolDefinition, ctx: HandlerContext, problems: readonly string[]): CallToolResult {
  ctx.logger.error({ tool: tool.name, problems }, 'tool result does not match its output schema');
  return toolErrorResult(`Tool ${tool.name} produced a result that does not match its output schema; details are in the server log.`);
}

function structured(tool: ToolDefinition, ctx: HandlerContext, value: unknown): CallToolResult {
  const check = tool.checkOutput!;
  if (isCallToolResult(value) && !isOwnOutput(tool, value)) {
    const problem = contentListProblem(value.content);
    if (problem !== undefined) return unsendable(tool, ctx, problem);
    if (value.isError) return value;
    if (value.structuredContent === undefined) return mismatch(tool, ctx, [NO_STRUCTURED_CONTENT]);
    if (tool.pickOutput) value = { ...value, structuredContent: tool.pickOutput(value.structuredContent) as Record<string, unknown> };
    const problems = check((value as CallToolResult).structuredContent);
    return problems ? mismatch(tool, ctx, problems) : (value as CallToolResult);
  }
  // Serialised once: the text block is this JSON, and the structured content its parse (what a
  // client receives: toJSON applied, undefined dropped), checked against the output schema.
  const json = isObject(value) ? JSON.stringify(value) : undefined;
  const parsed = json === undefined ? value : (JSON.parse(json) as Record<string, unknown>);
  // strictOutput: what the output DTO does not declare never leaves (copy-on-write: usually the same object).
  const plain = tool.pickOutput ? tool.pickOutput(parsed) : parsed;
  const problems = check(plain);
  if (problems) return mismatch(tool, ctx, problems);
  const text = tool.outputText ? tool.outputText(value) : plain === parsed && json !== undefined ? json : JSON.stringify(plain);
  return structuredResult(plain as Record<string, unknown>, text);
}

/**
 * `tools/call`: validate the envelope (JSON-RPC errors), then the arguments (an `isError` result,
 * SEP-1303), run the handler and shape its return value. `admitted`: the call already passed
 * `admitCall` (a task's call, checked before the task was created).
 */
export async function callTool(
  tools: ReadonlyMap<string, ToolDefinition>,
  params: Record<string, unknown>,
  ctx: HandlerContext,
  defaultTimeoutMs?: number,
  pipelines?: ReadonlyMap<string, Pipeline>,
  admitted = false,
): Promise<CallToolResult> {
  const { tool, args } = toolOf(tools, params, ctx);
  // An app without guards or interceptors has no pipelines at all: the plain path below.
  const pipeline = pipelines?.get(tool.name);
  if (pipeline !== undefined) return callThroughPipeline(tool, pipeline, args, ctx, defaultTimeoutMs, admitted);
  if (!admitted && tool.headerParams.length > 0) ctx.clientLink.checkArgumentHeaders(tool.headerParams, args, ctx.transport);
  let outcome = tool.parseInput(args, ctx);
  if (outcome instanceof Promise) outcome = await outcome;
  if (!outcome.ok) return invalidArguments(tool, outcome.problems);
  let result: CallToolResult;
  const timeoutMs = tool.timeoutMs ?? defaultTimeoutMs;
  const deadline = timeoutMs === undefined ? undefined : ctx.deadline(timeoutMs, () => new ToolTimeoutError(tool.name, timeoutMs));
  try {
    let value = tool.invoke(outcome.value, ctx);
    if (value instanceof Promise) value = await (deadline ? Promise.race([value, deadline.expired]) : value);
    result = tool.checkOutput ? structured(tool, ctx, value) : unstructured(tool, ctx, value);
  } catch (error) {
    result = failed(tool, ctx, error);
  } finally {
    deadline?.clear();
  }
  return result;
}

/** The answer to a name no tool has, and to a tool hidden from this caller: the same bytes. */
function unknownTool(name: string): InvalidParamsError {
  return new InvalidParamsError(`Unknown tool: ${clip(name)}`);
}

/**
 * The tool a `tools/call` names and its arguments: the envelope's errors, then an unknown name's,
 * in the same order for every name (whatever follows, a hidden tool must fail here exactly as a
 * name no tool has).
 */
export function toolOf(
  tools: ReadonlyMap<string, ToolDefinition>,
  params: Record<string, unknown>,
  ctx: HandlerContext,
): { tool: ToolDefinition; args: Record<string, unknown> } {
  const name = requireString(params, 'name', METHOD.TOOLS_CALL);
  const args = optionalArguments(params, METHOD.TOOLS_CALL);
  const tool = tools.get(name);
  // A tool only a view may call does not exist for a client without MCP Apps (it is not listed there).
  if (!tool || (tool.appOnly && !offersViews(ctx.client))) throw unknownTool(name);
  return { tool, args };
}

/**
 * What a call must pass before anything that depends on the tool's definition: its access rule
 * and guards (a hidden tool throws the unknown-tool error, a denial its own), then the transport's
 * copy of its arguments (`Mcp-Param-*` on 2026-07-28 over HTTP). Task planning comes after, so
 * nothing a hidden tool is (a task tool, a tool with mirrored arguments) can show.
 */
export function admitCall(tool: ToolDefinition, pipeline: Pipeline | undefined, args: Record<string, unknown>, ctx: HandlerContext): void | Promise<void> {
  const headers = (): void => {
    if (tool.headerParams.length > 0) ctx.clientLink.checkArgumentHeaders(tool.headerParams, args, ctx.transport);
  };
  if (pipeline === undefined) return headers();
  return pipeline.authorize(ctx, 'call').then((verdict) => {
    if (verdict === 'hidden') {
      ctx.outcome = 'hidden';
      throw unknownTool(tool.name);
    }
    headers();
  });
}

/**
 * `tools/call` of a tool with a pipeline: access first (a hidden tool is an unknown tool, and an
 * unauthorised caller never reaches validation), then interceptors around validation and the
 * handler, then filters; the result is shaped as on the plain path.
 */
async function callThroughPipeline(
  tool: ToolDefinition,
  pipeline: Pipeline,
  args: Record<string, unknown>,
  ctx: HandlerContext,
  defaultTimeoutMs: number | undefined,
  admitted: boolean,
): Promise<CallToolResult> {
  if (!admitted) await admitCall(tool, pipeline, args, ctx);
  const timeoutMs = tool.timeoutMs ?? defaultTimeoutMs;
  const core = async (): Promise<unknown> => {
    let outcome = tool.parseInput(args, ctx);
    if (outcome instanceof Promise) outcome = await outcome;
    if (!outcome.ok) throw new InvalidArgumentsSignal(outcome.problems);
    const deadline = timeoutMs === undefined ? undefined : ctx.deadline(timeoutMs, () => new ToolTimeoutError(tool.name, timeoutMs));
    try {
      const value = tool.invoke(outcome.value, ctx);
      return value instanceof Promise ? await (deadline ? Promise.race([value, deadline.expired]) : value) : value;
    } finally {
      deadline?.clear();
    }
  };
  let result: CallToolResult;
  try {
    const value = await pipeline.run(ctx, 'call', core);
    result = tool.checkOutput ? structured(tool, ctx, value) : unstructured(tool, ctx, value);
  } catch (error) {
    result = error instanceof InvalidArgumentsSignal ? invalidArguments(tool, error.problems) : failed(tool, ctx, error);
  }
  return result;
}
