import type { ResourceOptions } from '../decorators/decorator-options';
import { Resource } from '../decorators/resource.decorator';
import type { RequestContext } from '../model/request-context';
import { withPipeline, type DefinePipelineOptions } from './define-pipeline';
import { defineProvider, type Definition } from './definition';

/** The options of `@Resource`, with `name` required (there is no method to take it from). */
export interface DefineResourceOptions extends Omit<ResourceOptions, 'name'>, DefinePipelineOptions {
  name: string;
}

/** What a decorated `@Resource` method is, as a function: the URI read and the request context. */
export type ResourceHandler = (request: { uri: string }, ctx: RequestContext) => unknown;

/**
 * Declares one fixed resource without a class, for resources decided at start-up (one per file
 * in a folder, say). It takes `@Resource`'s options and is compiled by `createApp` exactly as
 * `@Resource` is, duplicate-URI check included.
 *
 * @param options `@Resource`'s options, `name` required.
 * @param handler Returns what a `@Resource` method returns: a string, a `Uint8Array`, contents or
 *   a `ReadResourceResult`, or `undefined` for "no such resource".
 * @returns A provider for `createApp({ providers })`.
 * @throws DefinitionError when the options, the name or the handler are missing; every other
 *   mistake is reported by `createApp`.
 *
 * @example
 * const docs = readdirSync(folder).map((file) =>
 *   defineResource({ uri: `docs:///${file}`, name: file, mimeType: 'text/markdown' }, () => readFileSync(join(folder, file), 'utf8')),
 * );
 */
export function defineResource(options: DefineResourceOptions, handler: ResourceHandler): Definition<'resource'> {
  return defineProvider(
    'resource',
    'defineResource',
    options,
    handler,
    (given) => given.name,
    (given) => withPipeline(given, (own) => Resource(own)),
  );
}
