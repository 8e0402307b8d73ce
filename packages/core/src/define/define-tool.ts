import type { ToolOptions } from '../decorators/decorator-options';
import { Tool } from '../decorators/tool.decorator';
import type { RequestContext } from '../model/request-context';
import type { Constructor } from '../metadata/constructor';
import { withPipeline, type DefineToolPipelineOptions } from './define-pipeline';
import { defineProvider, type Definition } from './definition';

/**
 * The options of `@Tool`, with two differences that come from having no method: `name` is
 * required, and leaving `input` out means a tool without arguments (there is no parameter type
 * to infer a DTO from).
 */
export interface DefineToolOptions<I extends object = Record<string, unknown>> extends Omit<ToolOptions, 'name' | 'input'>, DefineToolPipelineOptions {
  name: string;
  /** The input DTO class; its instance is the handler's first argument. */
  input?: Constructor<I> | null;
}

/** What a decorated `@Tool` method is, as a function: the validated input and the request context. */
export type ToolHandler<I extends object = Record<string, unknown>> = (input: I, ctx: RequestContext) => unknown;

/**
 * Declares a tool without a class, for tools decided at start-up (one per configured endpoint,
 * say). It takes `@Tool`'s options and is compiled by `createApp` exactly as `@Tool` is: the
 * same schemas, validation, checks and `DefinitionError`s, and a name clash with a decorated tool
 * is the usual duplicate-name error.
 *
 * @param options `@Tool`'s options, `name` required.
 * @param handler Called with the validated input (an instance of `input`, or the arguments
 *   object for `inputSchema`) and the request context; returns what a `@Tool` method returns.
 * @returns A provider for `createApp({ providers })`.
 * @throws DefinitionError when the options, the name or the handler are missing; every other
 *   mistake is reported by `createApp`.
 *
 * @example
 * const tools = endpoints.map((endpoint) =>
 *   defineTool({ name: `get_${endpoint.name}`, description: endpoint.description, input: QueryInput }, (input, ctx) =>
 *     fetchJson(endpoint.url, input.query, ctx.signal),
 *   ),
 * );
 * const app = createApp({ name: 'gateway', version: '1.0.0', providers: [...tools, HealthTools] });
 */
export function defineTool<I extends object = Record<string, unknown>>(options: DefineToolOptions<I>, handler: ToolHandler<I>): Definition<'tool'> {
  return defineProvider(
    'tool',
    'defineTool',
    options,
    handler,
    (given) => given.name,
    (given) =>
      withPipeline(given, (own) =>
        // Without a method there is nothing to infer from: no input and no inputSchema is `input: null`.
        Tool({ ...own, input: own.input ?? (own.inputSchema === undefined ? null : undefined) }),
      ),
  );
}
