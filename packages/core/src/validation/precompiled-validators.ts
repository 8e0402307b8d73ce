import type { ValidateFunction } from 'ajv';
import type { JsonSchema } from '../protocol/mcp-types';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { InternalError } from '../errors/mcp-error';
import { canonicalText } from './unique-items';

/**
 * The module `mcpkit build-validators` writes: ajv's standalone code of every schema the app
 * validates with, each exported under its schema's key, and the hash of those schemas. Given to
 * `createApp({ validators })`, it replaces compiling at run time: no code is generated (Workers
 * forbid `new Function`) and the first call of a tool pays no compile.
 *
 * @example
 * import validators from './validators.generated.js';
 * const app = createApp({ name: 'notes', version: '1.0.0', providers: [Notes], validators });
 */
export interface PrecompiledValidators {
  /** The hash of the schemas the module was generated from (see `schemasHash`). */
  readonly schemasHash: string;
  /** The command that wrote the module, for the error that says it is stale. */
  readonly command?: string;
  readonly [key: string]: ValidateFunction | string | undefined;
}

/** FNV-1a over UTF-16 code units, twice with two offsets: 64 bits as 16 hex digits. */
function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x01000193);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** A schema's key in a precompiled module: a hash of its canonical JSON (members sorted). */
export function schemaKey(schema: JsonSchema): string {
  return `s${hash64(canonicalText(schema))}`;
}

/** The hash of a set of schemas, by their keys, whatever their order. */
export function schemasHash(keys: Iterable<string>): string {
  return hash64([...new Set(keys)].sort().join(','));
}

const DEFAULT_COMMAND = 'mcpkit build-validators <your app entry> --out <the validators file>';

/** The start-up error of a module generated from other schemas than the app's. */
export function staleValidators(module: PrecompiledValidators, problem: string): DefinitionError {
  return new DefinitionError(DefinitionErrorCode.STALE_VALIDATORS, `The precompiled validators given to createApp are stale: ${problem}`, [
    `Regenerate them after every change to a schema: ${module.command ?? DEFAULT_COMMAND}`,
    'Or leave out the "validators" option: mcpkit then compiles each validator at its first use (not on Cloudflare Workers).',
  ]);
}

/** The validator of `key` in the module, if it has one. */
export function precompiledValidator(module: PrecompiledValidators, key: string): ValidateFunction | undefined {
  const found = module[key];
  return typeof found === 'function' ? found : undefined;
}

/** What a runtime that forbids generating code throws when ajv compiles (Workers: an EvalError). */
export function isCodeGenerationRefused(error: unknown): boolean {
  return error instanceof EvalError || (error instanceof Error && /code generation from strings|eval.*(disallowed|not allowed)/i.test(error.message));
}

/**
 * The error of a schema met after start-up (a `ctx.elicit` DTO, a tool added to a dynamic app)
 * where compiling it is refused: the precompiled module cannot hold it, and the runtime forbids
 * the code ajv generates. Said to the caller too: an operator reading `-32603 Internal error`
 * could not tell this from a bug.
 */
export function lateSchemaRefused(cause: unknown): InternalError {
  return new InternalError(
    'This input cannot be validated on this runtime: its schema was first met after start-up (an elicitation DTO, a tool added at run time), ' +
      'so the precompiled validators do not hold it, and the runtime forbids generating code (Cloudflare Workers). ' +
      'Declare every tool at start-up and elicit on this runtime with a schema that a tool declared at start-up already uses.',
    undefined,
    { cause },
  );
}
