import type { Logger } from '../logging/logger';
import type { RequestContext } from '../model/request-context';
import type { CacheHint } from '../results/cache-hints';
import type { Provider } from '../scanner/scan-providers';
import type { EventBus } from './event-bus';

/** An extension method's handler: the request's params in, its result out; a thrown `McpError` is the answer. */
export type ExtensionMethodHandler = (params: Readonly<Record<string, unknown>>, ctx: RequestContext) => unknown;

/** An extension method with the cache hint its 2026-07-28 results carry. */
export interface ExtensionMethod {
  handler: ExtensionMethodHandler;
  /** `ttlMs` / `cacheScope` on 2026-07-28 results (`ttlMs` 0, `public` when only one is given); default: none sent. */
  cache?: CacheHint;
}

/** What an extension is given once the app is built: the bus its list changes go out on. */
export interface ExtensionHost {
  readonly bus: EventBus;
  readonly logger: Logger;
}

/**
 * A protocol extension served by the app (`createApp({ extensions })`): declared in
 * `capabilities.extensions` on both eras, its methods answered on both eras, its providers served
 * as the app's own. A package such as `@mcpkit/skills` builds one; an app rarely writes one.
 *
 * @example
 * const echo: ServerExtension = {
 *   id: 'com.example/echo',
 *   methods: { 'echo/say': (params) => ({ said: params.text }) },
 * };
 * createApp({ name: 'demo', version: '1.0.0', providers: [], extensions: [echo] });
 */
export interface ServerExtension {
  /** Its identifier in `capabilities.extensions`, with a prefix (`io.modelcontextprotocol/skills`). */
  readonly id: string;
  /** Its settings there (default `{}`). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** The methods it answers, by name: each must be new to MCP and to the other extensions. */
  readonly methods?: Readonly<Record<string, ExtensionMethodHandler | ExtensionMethod>>;
  /** Tools, resources and prompts it serves, as `createApp({ providers })` takes them. */
  readonly providers?: readonly Provider[];
  /** Lists it may change at run time (published with `host.bus`): declared with `listChanged: true`. */
  readonly listChanged?: ReadonlyArray<'tools' | 'resources' | 'prompts'>;
  /** Called once `createApp` built the app. */
  attach?(host: ExtensionHost): void;
}
