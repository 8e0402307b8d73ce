import type { Provider } from '../scanner/scan-providers';
import type { WireCacheHint } from '../results/cache-hints';
import type { MethodHandler } from './method-handler';

/** The app's extensions, compiled once: what the capabilities declare and what the method table adds. */
export interface ExtensionTable {
  readonly capabilities: Readonly<Record<string, object>>;
  /** Answered on every era, beside the era's own methods. */
  readonly methods: ReadonlyMap<string, MethodHandler>;
  readonly cacheHints: ReadonlyMap<string, WireCacheHint>;
  readonly listChanged: ReadonlySet<'tools' | 'resources' | 'prompts'>;
  readonly providers: readonly Provider[];
}
