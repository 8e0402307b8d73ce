import type { McpApp } from './mcp-app';
import { STANDALONE_DECLARATION, standaloneValidatorsSource } from '../validation/standalone-source';

/**
 * The precompiled validators of `app` (what `mcpkit build-validators` writes): a CommonJS module
 * of ajv's standalone code for every schema the app validates with at start-up, and its `.d.ts`.
 * Give the module to `createApp({ validators })`. `command` is what regenerates it, named by the
 * error that refuses a stale module.
 *
 * @example
 * const { source, declaration } = precompiledValidatorsSource(app, 'mcpkit build-validators dist/app.js --out dist/validators.generated.js');
 */
export function precompiledValidatorsSource(app: McpApp, command: string): { source: string; declaration: string } {
  return { source: standaloneValidatorsSource(app.settings.validators.startupSchemas, command), declaration: STANDALONE_DECLARATION };
}
