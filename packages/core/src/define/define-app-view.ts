import type { AppViewOptions } from '../decorators/decorator-options';
import { AppView } from '../decorators/app-view.decorator';
import type { RequestContext } from '../model/request-context';
import { withPipeline, type DefinePipelineOptions } from './define-pipeline';
import { defineProvider, type Definition } from './definition';

/** The options of `@AppView`, with `name` required (there is no method to take it from). */
export interface DefineAppViewOptions extends Omit<AppViewOptions, 'name'>, DefinePipelineOptions {
  name: string;
}

/** What a decorated `@AppView` method is, as a function: the URI read and the request context. */
export type AppViewHandler = (request: { uri: string }, ctx: RequestContext) => unknown;

/**
 * Declares an MCP Apps view without a class. It takes `@AppView`'s options and is compiled by
 * `createApp` exactly as `@AppView` is.
 *
 * @param options `@AppView`'s options, `name` required.
 * @param handler Returns the view's HTML: a string, bytes, or `{ text }` / `{ blob }`.
 * @returns A provider for `createApp({ providers })`.
 * @throws DefinitionError when the options, the name or the handler are missing; every other
 *   mistake is reported by `createApp`.
 *
 * @example
 * const board = defineAppView({ uri: 'ui://notes/board', name: 'board' }, () => readFile(boardHtml, 'utf8'));
 */
export function defineAppView(options: DefineAppViewOptions, handler: AppViewHandler): Definition<'view'> {
  return defineProvider(
    'view',
    'defineAppView',
    options,
    handler,
    (given) => given.name,
    (given) => withPipeline(given, (own) => AppView(own)),
  );
}
