import Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { Constructor } from '../metadata/constructor';
import type { JsonSchema } from '../protocol/mcp-types';
import { formatAjvErrors, formatClassValidatorErrors } from './format-problems';

/** The outcome of checking one input: the value to hand the handler, or what was wrong. */
export type InputOutcome = { ok: true; value: unknown } | { ok: false; problems: string[] };

/** Checks raw arguments; synchronous unless a custom class-validator constraint must run. */
export type InputParser = (args: Record<string, unknown>) => InputOutcome | Promise<InputOutcome>;

/** Checks a value against a schema (used for tool output). */
export type ValueChecker = (value: unknown) => string[] | undefined;

export interface InputParserOptions {
  schema: JsonSchema;
  /** The DTO to instantiate (and run class-validator on, when `needsClassValidator`). */
  dto?: Constructor;
  needsClassValidator?: boolean;
  /** Drop properties the schema does not name (non-strict DTO inputs). */
  stripUnknown?: boolean;
}

function newAjv(removeAdditional: boolean): Ajv2020 {
  // strict: false because published schemas may carry annotations ajv does not know (`x-…`).
  const ajv = new Ajv2020({ allErrors: true, strict: false, removeAdditional: removeAdditional ? 'all' : false });
  addFormats(ajv);
  return ajv;
}

/**
 * Compiles validators once per app at start-up: the published schema is the truth, ajv enforces
 * it, class-validator runs only when a DTO has constraints JSON Schema can't express.
 */
export class ValidatorFactory {
  private readonly exact = newAjv(false);
  private readonly stripping = newAjv(true);
  private readonly memos = new WeakMap<object, unknown>();

  /** Builds something for `key` once (e.g. the checker of an elicitation schema) and keeps it. */
  memo<T>(key: object, build: () => T): T {
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const value = build();
    this.memos.set(key, value);
    return value;
  }

  /** Compiles now; throws when the schema itself is invalid. */
  compile(schema: JsonSchema, stripUnknown = false): ValidateFunction {
    return (stripUnknown ? this.stripping : this.exact).compile(schema);
  }

  /**
   * Checks the schema now but compiles it on first use: an app with hundreds of tools starts
   * fast, and a tool nobody calls costs nothing. Throws when the schema is invalid.
   */
  compileLazily(schema: JsonSchema, stripUnknown = false): ValidateFunction {
    const ajv = stripUnknown ? this.stripping : this.exact;
    if (!ajv.validateSchema(schema)) throw new Error(ajv.errorsText(ajv.errors));
    let compiled: ValidateFunction | undefined;
    const check = ((data: unknown) => {
      compiled ??= ajv.compile(schema);
      const valid = compiled(data) as boolean;
      check.errors = compiled.errors;
      return valid;
    }) as ValidateFunction;
    return check;
  }

  inputParser(options: InputParserOptions): InputParser {
    const check = this.compileLazily(options.schema, options.stripUnknown);
    const { dto, needsClassValidator } = options;
    if (!dto) {
      return (args) => (check(args) ? { ok: true, value: args } : { ok: false, problems: formatAjvErrors(check.errors ?? []) });
    }
    if (!needsClassValidator) {
      return (args) => {
        if (!check(args)) return { ok: false, problems: formatAjvErrors(check.errors ?? []) };
        return { ok: true, value: plainToInstance(dto, args, { exposeDefaultValues: true }) };
      };
    }
    return async (args) => {
      if (!check(args)) return { ok: false, problems: formatAjvErrors(check.errors ?? []) };
      const instance = plainToInstance(dto, args, { exposeDefaultValues: true }) as object;
      const errors = await validate(instance, { forbidUnknownValues: false });
      return errors.length === 0 ? { ok: true, value: instance } : { ok: false, problems: formatClassValidatorErrors(errors) };
    };
  }

  valueChecker(schema: JsonSchema): ValueChecker {
    const check = this.compileLazily(schema);
    return (value) => (check(value) ? undefined : formatAjvErrors(check.errors ?? []));
  }
}
