import { duplicateOf } from './unique-items';

/**
 * What precompiled validators (`mcpkit build-validators`) call at run time, by name: ajv's
 * runtime helpers, ajv-formats' formats and core's own keyword code. The generated module asks
 * core for them rather than requiring `ajv` itself, so that it needs no package but
 * `@mcpkit/core` (under pnpm, ajv is not the app's to require). Static requires, so that a
 * bundler (a Worker's) takes them in.
 *
 * @example
 * const equal = validatorRuntime('ajv/dist/runtime/equal').default;
 */
export function validatorRuntime(name: string): unknown {
  /* eslint-disable @typescript-eslint/no-require-imports */
  switch (name) {
    case 'duplicateOf':
      return duplicateOf;
    case 'ajv/dist/runtime/equal':
      return require('ajv/dist/runtime/equal');
    case 'ajv/dist/runtime/ucs2length':
      return require('ajv/dist/runtime/ucs2length');
    case 'ajv/dist/runtime/uri':
      return require('ajv/dist/runtime/uri');
    case 'ajv/dist/runtime/validation_error':
      return require('ajv/dist/runtime/validation_error');
    case 'ajv/dist/runtime/timestamp':
      return require('ajv/dist/runtime/timestamp');
    case 'ajv-formats/dist/formats':
      return require('ajv-formats/dist/formats');
    default:
      throw new Error(
        `validatorRuntime: no helper named ${JSON.stringify(name)}; regenerate the validators with the installed @mcpkit/core (mcpkit build-validators)`,
      );
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
}
