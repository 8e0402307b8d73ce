import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { headerParamsOf } from './header-params';
import type { ToolOptions } from '../decorators/decorator-options';
import type { Constructor } from '../metadata/constructor';
import { isObject } from '../protocol/json-rpc';
import type { JsonSchema, Tool } from '../protocol/mcp-types';
import { VIEW_SCHEME, VIEW_URI_META_KEY, type ToolVisibility } from '../protocol/ui-extension';
import { buildDtoSchema } from '../schema/dto-to-json-schema';
import { knownPropertiesPicker } from '../validation/known-properties';
import { isKnownValidSchema } from '../validation/known-valid-schema';
import type { InputParser, ValidatorFactory } from '../validation/validator-factory';
import type { ToolDefinition } from './definitions';
import { resolveInputDto } from './resolve-input';
import type { DecoratedMethod } from './scan-providers';
import { bindHandler, copyCommonFields } from './common';
import { readPolicy } from './read-policy';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function compileRawSchema(validators: ValidatorFactory, schema: unknown, method: DecoratedMethod): InputParser {
  if (!isObject(schema) || schema.type !== 'object') {
    throw new DefinitionError(DefinitionErrorCode.SCHEMA_ROOT_NOT_OBJECT, `The inputSchema of ${method.owner} must have type "object" at its root.`, [
      'Wrap the values in an object schema: { type: "object", properties: { … } }.',
      'Tool arguments are always a JSON object on the wire.',
    ]);
  }
  checkNow(validators, schema, `The inputSchema of ${method.owner}`);
  return validators.inputParser({ schema, what: `The inputSchema of ${method.owner}` });
}

/**
 * A schema a user wrote, whole or in part, compiles now: a bad $ref or keyword must fail at
 * start-up, not on the first call. `what` names it in the error. `parts` (default: the schema)
 * are what the user wrote in it: when each is known valid without ajv, ajv is not loaded yet.
 */
function checkNow(validators: ValidatorFactory, schema: JsonSchema, what: string, parts: readonly JsonSchema[] = [schema]): void {
  if (parts.every(isKnownValidSchema)) return;
  try {
    // ajv checks the schema against its meta-schema as it compiles.
    validators.compile(schema);
  } catch (error) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_SCHEMA, `${what} is not a valid JSON Schema 2020-12: ${(error as Error).message}`, [
      'Check the schema against https://json-schema.org/draft/2020-12/schema.',
      'Schemas without $schema are read as 2020-12.',
    ]);
  }
}

/**
 * A DTO's schema with a raw `@Field({ schema })` piece is checked like a raw inputSchema: the
 * pieces alone when they are known valid (they refer to nothing), else the whole schema by ajv.
 */
function checkRawFields(validators: ValidatorFactory, built: { schema: JsonSchema; rawParts: JsonSchema[] }, dto: Constructor): void {
  if (built.rawParts.length > 0) checkNow(validators, built.schema, `The schema of ${dto.name}, with its @Field({ schema }) parts,`, built.rawParts);
}

interface DtoInput {
  inputSchema: JsonSchema;
  parseInput: InputParser;
}

// Per app (its validator factory), per DTO, loose and strict: tools that take the same input
// class share one frozen schema and one parser, so that class is read, and its validator
// compiled, once however many tools take it.
const dtoInputs = new WeakMap<ValidatorFactory, Map<Constructor, [DtoInput?, DtoInput?]>>();

function dtoInput(validators: ValidatorFactory, dto: Constructor, strict: boolean): DtoInput {
  let byDto = dtoInputs.get(validators);
  if (byDto === undefined) dtoInputs.set(validators, (byDto = new Map()));
  let variants = byDto.get(dto);
  if (variants === undefined) byDto.set(dto, (variants = []));
  const slot = strict ? 1 : 0;
  const known = variants[slot];
  if (known !== undefined) return known;
  const built = buildDtoSchema(dto, { strict });
  checkRawFields(validators, built, dto);
  const input: DtoInput = {
    inputSchema: built.schema,
    parseInput: validators.inputParser({
      schema: built.schema,
      dto,
      needsClassValidator: built.needsClassValidator,
      stripUnknown: !strict,
      generated: true,
      instantiate: built.instantiate,
      schemaChecked: built.schemaChecked,
    }),
  };
  variants[slot] = input;
  return input;
}

/** Compiles one `@Tool` method: name checks, schemas, validators and the bound handler. */
export function compileTool(method: DecoratedMethod, validators: ValidatorFactory): ToolDefinition {
  const options = method.options as ToolOptions;
  const name = toolName(options, method);
  const { inputSchema, parseInput } = toolInput(options, method, validators);
  const output = toolOutput(options, method, validators);
  const taskSupport = checkCallOptions(options, method);
  const ui = toolUi(options, method);
  const entry: Tool = { name, ...copyCommonFields(options), inputSchema };
  if (ui) entry._meta = { ...entry._meta, ...ui.meta };
  if (output) entry.outputSchema = output.schema;
  if (options.annotations) entry.annotations = { ...options.annotations };
  // 'forbidden' is published as declared (as the reference servers do) yet makes no task runtime.
  if (options.task !== undefined) entry.execution = { taskSupport: options.task };
  const headerParams = headerParamsOf(inputSchema, method.owner);
  return Object.freeze({
    name,
    owner: method.owner,
    entry: deepFreeze(entry),
    parseInput,
    checkOutput: output?.check,
    pickOutput: output?.pick,
    outputText: options.text as ((result: unknown) => string) | undefined,
    invoke: bindHandler(method),
    timeoutMs: options.timeoutMs,
    headerParams,
    taskSupport,
    view: ui?.view,
    appOnly: ui?.appOnly ?? false,
    policy: readPolicy(method),
    tags: toolTags(options, method),
  });
}

/** `@Tool({ tags })`: strings, frozen. */
function toolTags(options: ToolOptions, method: DecoratedMethod): readonly string[] {
  const tags = options.tags ?? [];
  if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string' && tag.length > 0)) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${method.site} has tags ${JSON.stringify(tags)}; tags are non-empty strings.`, [
      `Write ${method.label}({ tags: ['internal'] }).`,
    ]);
  }
  return Object.freeze([...tags]);
}

const VISIBILITIES: readonly ToolVisibility[] = ['model', 'app'];

/** Whether the tool's own `_meta` says what the `ui` option says (`ui`, or the flat `ui/resourceUri`). */
function hasMetaUi(options: ToolOptions): boolean {
  return isObject(options._meta) && (options._meta.ui !== undefined || options._meta[VIEW_URI_META_KEY] !== undefined);
}

/**
 * The `ui` option checked: the `_meta` it publishes (`ui.resourceUri` and `ui.visibility`, and
 * the deprecated flat `ui/resourceUri` the extension's server helper also writes), the view it
 * names (checked against the app's views once every provider is scanned), and whether only the
 * view may call the tool. Undefined without the option.
 */
function toolUi(options: ToolOptions, method: DecoratedMethod): { meta: Record<string, unknown>; view: string | undefined; appOnly: boolean } | undefined {
  const { ui } = options;
  const example = `${method.label}({ ui: { view: 'ui://notes/board', visibility: ['model', 'app'] } })`;
  // Written by hand, _meta.ui would go unchecked and unenforced: a visibility ['app'] there would
  // still list the tool to every client and let any client call it.
  if (ui === undefined && hasMetaUi(options)) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${method.site} has _meta.ui, which mcpkit does not read or enforce.`, [
      `Say it with the ui option, which publishes _meta.ui and enforces the visibility: ${example}.`,
    ]);
  }
  if (ui === undefined) return undefined;
  if (!isObject(ui) || Object.keys(ui).length === 0 || Object.keys(ui).some((key) => key !== 'view' && key !== 'visibility')) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${method.site} has ui ${JSON.stringify(ui)}.`, [
      `Give a view, a visibility or both: ${example}.`,
    ]);
  }
  if (hasMetaUi(options)) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${method.site} has both ui and _meta.ui.`, [
      `Say it once, with the ui option: ${example}.`,
    ]);
  }
  const { view, visibility } = ui;
  if (view !== undefined && (typeof view !== 'string' || !view.startsWith(VIEW_SCHEME))) {
    throw new DefinitionError(
      DefinitionErrorCode.INVALID_URI,
      `${method.site} names the view ${JSON.stringify(view)}; a view's URI starts with ${VIEW_SCHEME}.`,
      [`Name the URI of an @AppView of this app: ${example}.`],
    );
  }
  if (
    visibility !== undefined &&
    (!Array.isArray(visibility) || visibility.length === 0 || visibility.some((who, index) => !VISIBILITIES.includes(who) || visibility.indexOf(who) !== index))
  ) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${method.site} has the visibility ${JSON.stringify(visibility)}.`, [
      "List who may see and call the tool, each once: ['model', 'app'] (the default), ['model'] or ['app'].",
    ]);
  }
  const meta: Record<string, unknown> = {};
  if (view !== undefined) meta.resourceUri = view;
  if (visibility !== undefined) meta.visibility = [...visibility];
  return {
    meta: view === undefined ? { ui: meta } : { ui: meta, [VIEW_URI_META_KEY]: view },
    view,
    appOnly: visibility !== undefined && !visibility.includes('model'),
  };
}

/** The wire name (the method's, unless `name` says otherwise), checked against SEP-986's charset. */
function toolName(options: ToolOptions, method: DecoratedMethod): string {
  const name = options.name ?? method.methodName;
  if (!TOOL_NAME.test(name)) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_TOOL_NAME, `Tool name "${name}" of ${method.owner} is not allowed.`, [
      'Use 1 to 128 characters from A-Z, a-z, 0-9, "_", "-" and ".": no spaces or commas.',
      `Set the wire name explicitly: ${method.label}({ name: 'notes.search' }).`,
    ]);
  }
  return name;
}

/** The input schema and its parser: a raw `inputSchema`, the input DTO's, or an empty object's when the tool takes none. */
function toolInput(options: ToolOptions, method: DecoratedMethod, validators: ValidatorFactory): DtoInput {
  if (options.inputSchema !== undefined && options.input !== undefined) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${method.site} has both input and inputSchema.`, [
      'Keep one: a DTO class or a raw JSON Schema.',
    ]);
  }
  if (options.inputSchema !== undefined) {
    const parseInput = compileRawSchema(validators, options.inputSchema, method);
    return { inputSchema: options.inputSchema, parseInput };
  }
  const dto = resolveInputDto(method);
  const strict = options.strict === true;
  if (dto) return dtoInput(validators, dto, strict);
  const inputSchema: JsonSchema = strict ? { type: 'object', properties: {}, additionalProperties: false } : { type: 'object', properties: {} };
  return { inputSchema, parseInput: validators.inputParser({ schema: inputSchema, stripUnknown: !strict, generated: true }) };
}

/** The output DTO's schema, its checker and (strictOutput) the picker of its known properties; none without an output DTO. */
function toolOutput(
  options: ToolOptions,
  method: DecoratedMethod,
  validators: ValidatorFactory,
): { schema: JsonSchema; check: ToolDefinition['checkOutput']; pick: ToolDefinition['pickOutput'] } | undefined {
  if (options.outputSchema !== undefined) return rawOutput(options, method, validators);
  if (options.output === undefined) {
    if (options.strictOutput !== undefined || options.text !== undefined) {
      throw new DefinitionError(
        DefinitionErrorCode.INVALID_OPTIONS,
        `${method.site} has ${options.text !== undefined ? 'text' : 'strictOutput'} but no output DTO.`,
        [`Both shape structured output: name its class with ${method.label}({ output: ResultDto, … }).`],
      );
    }
    return undefined;
  }
  const output = options.output as Constructor;
  const built = buildDtoSchema(output, { strict: options.strictOutput === true });
  checkRawFields(validators, built, output);
  const { schema } = built;
  return { schema, check: validators.valueChecker(schema, true), pick: options.strictOutput === true ? knownPropertiesPicker(schema) : undefined };
}

/** A raw `outputSchema`, checked as a raw inputSchema is; `strictOutput` picks what its root declares. */
function rawOutput(options: ToolOptions, method: DecoratedMethod, validators: ValidatorFactory): NonNullable<ReturnType<typeof toolOutput>> {
  const schema = options.outputSchema;
  if (options.output !== undefined) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${method.site} has both output and outputSchema.`, [
      'Keep one: a DTO class or a raw JSON Schema.',
    ]);
  }
  if (!isObject(schema) || schema.type !== 'object') {
    throw new DefinitionError(DefinitionErrorCode.SCHEMA_ROOT_NOT_OBJECT, `The outputSchema of ${method.owner} must have type "object" at its root.`, [
      'Wrap the value in an object schema: { type: "object", properties: { result: … } }.',
      'structuredContent is always a JSON object on the wire.',
    ]);
  }
  checkNow(validators, schema, `The outputSchema of ${method.owner}`);
  return { schema, check: validators.valueChecker(schema), pick: options.strictOutput === true ? knownPropertiesPicker(schema) : undefined };
}

/** Checks `text`, `timeoutMs` and `task`; returns the task support the tool declares (none when forbidden or unset). */
function checkCallOptions(options: ToolOptions, method: DecoratedMethod): 'optional' | 'required' | undefined {
  if (options.text !== undefined && typeof options.text !== 'function') {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${method.site} has a text option that is not a function.`, [
      `Give a function of the result: ${method.label}({ output, text: (result) => \`…\` }).`,
    ]);
  }
  if (options.timeoutMs !== undefined && !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)) {
    throw new DefinitionError(
      DefinitionErrorCode.INVALID_OPTIONS,
      `${method.site} has timeoutMs ${String(options.timeoutMs)}; it must be a positive number of milliseconds.`,
      [`Give a positive number, e.g. ${method.label}({ timeoutMs: 30_000 }), or leave it out.`],
    );
  }
  const taskSupport = options.task;
  if (taskSupport !== undefined && taskSupport !== 'forbidden' && taskSupport !== 'optional' && taskSupport !== 'required') {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${method.site} has task ${JSON.stringify(taskSupport)}.`, [
      `Say ${method.label}({ task: 'optional' }), ${method.label}({ task: 'required' }) or ${method.label}({ task: 'forbidden' }), or leave it out.`,
    ]);
  }
  return taskSupport === 'optional' || taskSupport === 'required' ? taskSupport : undefined;
}

/** @internal */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
