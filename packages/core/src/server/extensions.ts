import type { ExtensionHost, ServerExtension } from '../app/server-extension';
import type { MethodHandler } from '../dispatcher/method-handler';
import { DefinitionError, DefinitionErrorCode } from '../errors/definition-error';
import { METHOD } from '../protocol/methods';
import { resolveCacheHint, type WireCacheHint } from '../results/cache-hints';
import type { Provider } from '../scanner/scan-providers';
import type { ExtensionTable } from '../dispatcher/extension-table';

const CORE_METHODS: ReadonlySet<string> = new Set(Object.values(METHOD));
// `_meta` key rules with a prefix: `reverse.dns/name`.
const EXTENSION_ID = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+\/[A-Za-z0-9][A-Za-z0-9._-]*$/;
const DEFAULT_HINT: WireCacheHint = Object.freeze({ ttlMs: 0, cacheScope: 'public' });

function refuse(problem: string, fix: string): DefinitionError {
  return new DefinitionError(DefinitionErrorCode.INVALID_OPTIONS, `createApp: ${problem}`, [fix]);
}

/**
 * Checks and compiles `createApp({ extensions })`: ids well formed and distinct, methods new to
 * MCP and to each other (an extension cannot replace a core method).
 */
export function compileExtensions(extensions: readonly ServerExtension[]): ExtensionTable {
  const capabilities: Record<string, object> = {};
  const methods = new Map<string, MethodHandler>();
  const cacheHints = new Map<string, WireCacheHint>();
  const listChanged = new Set<'tools' | 'resources' | 'prompts'>();
  const providers: Provider[] = [];
  for (const extension of extensions) {
    const id = extension.id;
    if (typeof id !== 'string' || !EXTENSION_ID.test(id))
      throw refuse(`extension id ${JSON.stringify(id)} is not a prefixed identifier`, 'Name it like io.example/feature.');
    if (id in capabilities) throw refuse(`extension ${id} is given twice`, 'Give each extension once.');
    capabilities[id] = { ...extension.settings };
    for (const [name, method] of Object.entries(extension.methods ?? {})) {
      if (CORE_METHODS.has(name) || methods.has(name))
        throw refuse(`extension ${id} answers ${name}, which is already answered`, 'Give the method a name of its own.');
      const { handler, cache } = typeof method === 'function' ? { handler: method, cache: undefined } : method;
      methods.set(name, (params, ctx) => handler(params, ctx));
      if (cache !== undefined) cacheHints.set(name, resolveCacheHint(cache, DEFAULT_HINT));
    }
    for (const list of extension.listChanged ?? []) listChanged.add(list);
    providers.push(...(extension.providers ?? []));
  }
  return Object.freeze({ capabilities: Object.freeze(capabilities), methods, cacheHints, listChanged, providers: Object.freeze(providers) });
}

/** Hands each extension the built app's bus and logger. */
export function attachExtensions(extensions: readonly ServerExtension[], host: ExtensionHost): void {
  for (const extension of extensions) extension.attach?.(host);
}
