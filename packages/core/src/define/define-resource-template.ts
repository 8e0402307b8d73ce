import type { ResourceTemplateOptions } from '../decorators/decorator-options';
import { ResourceTemplate } from '../decorators/resource-template.decorator';
import type { RequestContext } from '../model/request-context';
import type { TemplateVariables } from '../uri-template/template-variables';
import { withPipeline, type DefinePipelineOptions } from './define-pipeline';
import { defineProvider, type Definition } from './definition';

/** The options of `@ResourceTemplate`, with `name` required (there is no method to take it from). */
export interface DefineResourceTemplateOptions<T extends string = string> extends Omit<ResourceTemplateOptions<T>, 'name'>, DefinePipelineOptions {
  name: string;
}

/** What a decorated `@ResourceTemplate` method is, as a function: the template's variables and the request context. */
export type ResourceTemplateHandler<T extends string = string> = (variables: TemplateVariables<T>, ctx: RequestContext) => unknown;

/**
 * Declares a resource template without a class. It takes `@ResourceTemplate`'s options and is
 * compiled by `createApp` exactly as `@ResourceTemplate` is; the handler's variables are typed
 * from the template, as the decorated method's are.
 *
 * @param options `@ResourceTemplate`'s options, `name` required.
 * @param handler Gets the variables parsed from the requested URI; returns what a
 *   `@ResourceTemplate` method returns (`undefined` for "no such resource").
 * @returns A provider for `createApp({ providers })`.
 * @throws DefinitionError when the options, the name or the handler are missing; every other
 *   mistake (a malformed template among them) is reported by `createApp`.
 *
 * @example
 * const tables = config.databases.map((db) =>
 *   defineResourceTemplate({ uriTemplate: `${db.name}://{table}`, name: db.name }, ({ table }) => db.describe(table)),
 * );
 */
export function defineResourceTemplate<const T extends string>(
  options: DefineResourceTemplateOptions<T>,
  handler: ResourceTemplateHandler<T>,
): Definition<'resourceTemplate'> {
  return defineProvider(
    'resourceTemplate',
    'defineResourceTemplate',
    options,
    handler,
    (given) => given.name,
    (given) => withPipeline(given, (own) => ResourceTemplate(own as ResourceTemplateOptions<T>)),
  );
}
