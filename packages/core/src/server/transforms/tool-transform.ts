import type { HiddenArgument, ToolTransform } from '../../app/transforms';
import { DefinitionError, DefinitionErrorCode } from '../../errors/definition-error';
import type { RequestContext } from '../../model/request-context';
import { isObject } from '../../protocol/json-rpc';
import type { JsonSchema } from '../../protocol/mcp-types';
import type { ToolDefinition } from '../../scanner/definitions';
import type { InputParser } from '../../validation/validator-factory';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export function transformError(problem: string, fixes: string[]): DefinitionError {
  return new DefinitionError(DefinitionErrorCode.INVALID_TRANSFORM, problem, fixes);
}

/** Checks a `{ tool, name, description, hide }` transform's shape once, at start-up. */
export function checkToolTransform(transform: ToolTransform, label: string): void {
  if (typeof transform.tool !== 'string') throw transformError(`${label} names no tool.`, ["Write { tool: 'search', name: 'find' }."]);
  if (transform.name !== undefined && (typeof transform.name !== 'string' || !TOOL_NAME.test(transform.name))) {
    throw transformError(`${label} renames "${transform.tool}" to ${JSON.stringify(transform.name)}, which is not a tool name.`, [
      'Use 1 to 128 characters from A-Z, a-z, 0-9, "_", "-" and ".".',
    ]);
  }
  if (transform.description !== undefined && typeof transform.description !== 'string' && typeof transform.description !== 'function') {
    throw transformError(`${label} gives "${transform.tool}" a description that is neither a string nor a function.`, ["Write description: 'Charges a card.'"]);
  }
  if (transform.hide === undefined) return;
  if (!isObject(transform.hide))
    throw transformError(`${label}: hide must map argument names to { value } or { from }.`, ["Write hide: { tenant: { value: 'acme' } }."]);
  for (const [argument, hidden] of Object.entries(transform.hide)) {
    const ok = isObject(hidden) && ('value' in hidden ? !('from' in hidden) : typeof (hidden as { from?: unknown }).from === 'function');
    if (!ok) {
      throw transformError(`${label} hides "${argument}" of "${transform.tool}" with ${JSON.stringify(hidden)}.`, [
        "Give a fixed value, { value: 'acme' }, or a function of the request, { from: (ctx) => ctx.auth?.claims?.tenant }.",
      ]);
    }
  }
}

/** The tool as `transform` reshapes it: everything decided here, a hidden argument's value excepted. */
export function reshapeTool(tool: ToolDefinition, transform: ToolTransform, label: string): ToolDefinition {
  const name = transform.name ?? tool.name;
  const entry = { ...tool.entry, name };
  if (typeof transform.description === 'string') entry.description = transform.description;
  else if (transform.description !== undefined) entry.description = transform.description(tool.entry.description);
  let { parseInput, headerParams } = tool;
  if (transform.hide !== undefined && Object.keys(transform.hide).length > 0) {
    const hidden = transform.hide;
    entry.inputSchema = withoutArguments(tool, Object.keys(hidden), label);
    parseInput = fillHidden(tool.parseInput, hidden);
    // A hidden argument is no longer the client's to send, so not to mirror in a header either.
    headerParams = headerParams.filter((param) => !(param.path[0] in hidden));
  }
  return Object.freeze({ ...tool, name, entry: Object.freeze(entry), parseInput, headerParams });
}

/** The input schema without the hidden arguments (its properties and `required`). */
function withoutArguments(tool: ToolDefinition, names: readonly string[], label: string): ToolDefinition['entry']['inputSchema'] {
  const schema = tool.entry.inputSchema;
  const properties = { ...(isObject(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {}) };
  for (const name of names) {
    if (!(name in properties)) {
      throw transformError(`${label} hides "${name}", which the input schema of "${tool.name}" (${tool.owner}) does not have.`, [
        `Hide one of its arguments: ${Object.keys(properties).join(', ') || '(it has none)'}.`,
      ]);
    }
    delete properties[name];
  }
  const reshaped: typeof schema = { ...schema, properties };
  if (Array.isArray(schema.required)) {
    const required = (schema.required as string[]).filter((name) => !names.includes(name));
    if (required.length > 0) reshaped.required = required;
    else delete reshaped.required;
  }
  return Object.freeze(reshaped);
}

/**
 * A parser that first writes the hidden arguments over the client's, then checks the whole as
 * the tool always did. A value that cannot be computed is a failed call, logged, never a crash.
 */
function fillHidden(parse: InputParser, hidden: Readonly<Record<string, HiddenArgument>>): InputParser {
  const fixed: Record<string, unknown> = {};
  const computed: Array<[string, (ctx: RequestContext) => unknown]> = [];
  for (const [name, argument] of Object.entries(hidden)) {
    if ('from' in argument) computed.push([name, argument.from]);
    else fixed[name] = argument.value;
  }
  if (computed.length === 0) return (args, ctx) => parse({ ...args, ...fixed }, ctx);
  return (args, ctx) => {
    const full: Record<string, unknown> = { ...args, ...fixed };
    for (const [name, from] of computed) {
      try {
        const value = from(ctx!);
        if (value === undefined) delete full[name];
        else full[name] = value;
      } catch (error) {
        ctx?.logger.error({ err: error, argument: name }, 'a hidden argument could not be computed');
        return { ok: false, problems: [`the argument "${name}" is set by the server, which could not compute it`] };
      }
    }
    return parse(full, ctx);
  };
}
