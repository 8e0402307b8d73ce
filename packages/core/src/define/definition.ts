import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import type { DefinitionSite } from '../metadata/definition-site';
import { DEFINITION_METADATA } from '../metadata/metadata-keys';

/** What a `define*` function declares. */
export type DefinitionKind = 'tool' | 'resource' | 'resourceTemplate' | 'view' | 'prompt' | 'complete';

/**
 * A capability declared by a `define*` function; list it in `createApp({ providers })` (or
 * `app.addProviders`) beside decorated classes. Nothing is checked until then: the app compiles
 * it with the same start-up checks as the matching decorator.
 */
export interface Definition<K extends DefinitionKind = DefinitionKind> {
  readonly kind: K;
  /** The wire name; for a completion, `prompt/argument` or `uriTemplate/variable`. */
  readonly name: string;
}

type Decorate = (prototype: object, key: string, descriptor: PropertyDescriptor) => void;

// The handler's key on the provider; fixes that name the method (`declare it as handler()`) never
// show it, as define* labels are not decorators.
const HANDLER = 'handler';

/**
 * @internal The provider behind every `define*` function: one method, decorated by the very
 * decorator the function stands for, so the scanner and compilers see what they see for a class.
 * Only what the scanner cannot report later (no options object, no name, no handler) throws here,
 * at the call, as a misplaced decorator throws when its class is evaluated.
 */
export function defineProvider<K extends DefinitionKind, O extends object>(
  kind: K,
  label: string,
  options: O,
  handler: unknown,
  nameOf: (options: O) => unknown,
  decorator: (options: O) => Decorate,
): Definition<K> {
  if (typeof options === 'function') {
    // The input DTO or the handler, given where the options go: named, as String() would print its source.
    const name = (options as { name?: string }).name || 'anonymous';
    const what = /^class\b/.test(Function.prototype.toString.call(options)) ? 'the class' : 'the function';
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${label} was called with ${what} ${name} instead of its options.`, [
      `Pass the options first and the handler second: ${label}({ name: 'search', input: ${name}, … }, (input, ctx) => …).`,
    ]);
  }
  if (typeof options !== 'object' || options === null) {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${label} was called with ${String(options)} instead of its options.`, [
      `Pass the options first and the handler second: ${label}({ name: 'search', … }, (input, ctx) => …).`,
    ]);
  }
  const name = nameOf(options);
  if (typeof name !== 'string' || name === '') {
    throw new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `${label} has no name: there is no method to take it from.`, [
      `Give it one: ${label}({ name: 'search', … }, handler).`,
    ]);
  }
  const owner = `${label}(${JSON.stringify(name)})`;
  if (typeof handler !== 'function') {
    throw new DefinitionError(DefinitionErrorCode.NOT_A_METHOD, `${owner} has no handler: its second argument is ${typeof handler}, not a function.`, [
      `Pass the handler after the options: ${label}({ … }, (input, ctx) => …).`,
    ]);
  }
  const prototype = {};
  const descriptor: PropertyDescriptor = { value: handler, writable: false, enumerable: false, configurable: false };
  Object.defineProperty(prototype, HANDLER, descriptor);
  decorator(options)(prototype, HANDLER, descriptor);
  const site: DefinitionSite = { label, owner };
  Reflect.defineMetadata(DEFINITION_METADATA, site, prototype);
  const definition = Object.create(prototype) as { kind: K; name: string };
  definition.kind = kind;
  definition.name = name;
  return Object.freeze(definition);
}
