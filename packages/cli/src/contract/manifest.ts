import type { Implementation, McpApp, McpPrompt, McpResource, McpResourceTemplate, McpTool, ServerCapabilities } from '@mcpkit/core';
import { canonicalJson, contentDigest } from './canonical-json';
import { MANIFEST_ERAS, capabilitiesOf, type ManifestEraName } from '../eras/manifest-eras';

export { MANIFEST_ERAS, type ManifestEraName } from '../eras/manifest-eras';

/** The version of the manifest format; a reader refuses another. */
export const MANIFEST_VERSION = 1;

/** An argument that completes (`@Complete`): the `ref` and `argument.name` of its `completion/complete`. */
export interface ManifestCompletion {
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  argument: string;
}

/** The content digest (`sha256:<hex>` of its canonical JSON) of each item, by its key. */
export interface ManifestDigests {
  /** By tool name. */
  tools: Record<string, string>;
  /** By URI. */
  resources: Record<string, string>;
  /** By URI template. */
  resourceTemplates: Record<string, string>;
  /** By prompt name. */
  prompts: Record<string, string>;
}

/**
 * What a client of one revision is told: the server info and capabilities of its `initialize`
 * (2025-11-25) or `server/discover` (2026-07-28) result, and every item of each list, every
 * page, as that revision's list results carry them. Items are sorted by their key.
 */
export interface ManifestEra {
  protocolVersion: ManifestEraName;
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  tools: McpTool[];
  resources: McpResource[];
  resourceTemplates: McpResourceTemplate[];
  prompts: McpPrompt[];
  digests: ManifestDigests;
}

/**
 * The contract of an app: its whole surface as published, without starting it. Written with
 * sorted keys (`formatManifest`), so the same app always gives the same bytes.
 */
export interface Manifest {
  manifestVersion: typeof MANIFEST_VERSION;
  /** The server info of the newest revision (every field). */
  server: Implementation;
  instructions?: string;
  /** The surface per revision. */
  eras: Record<ManifestEraName, ManifestEra>;
  /** The arguments that complete, sorted. */
  completions: ManifestCompletion[];
  /** The digest of everything above: two manifests with the same digest describe the same surface. */
  digest: string;
}

function byKey<T>(items: readonly T[], key: (item: T) => string): T[] {
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function digestsOf<T>(items: readonly T[], key: (item: T) => string): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const item of items) digests[key(item)] = contentDigest(item);
  return digests;
}

function eraOf(app: McpApp, era: ManifestEraName): ManifestEra {
  const view = app.view(era);
  // Copies: the manifest is plain data, never the app's frozen objects.
  const tools = byKey(structuredClone(view.tools.flatMap((page) => page.tools)) as McpTool[], (tool) => tool.name);
  const resources = byKey(structuredClone(view.resources.flatMap((page) => page.resources)) as McpResource[], (resource) => resource.uri);
  const resourceTemplates = byKey(
    structuredClone(view.resourceTemplates.flatMap((page) => page.resourceTemplates)) as McpResourceTemplate[],
    (template) => template.uriTemplate,
  );
  const prompts = byKey(structuredClone(view.prompts.flatMap((page) => page.prompts)) as McpPrompt[], (prompt) => prompt.name);
  return {
    protocolVersion: era,
    serverInfo: structuredClone(view.serverInfo) as Implementation,
    capabilities: capabilitiesOf(app, era),
    tools,
    resources,
    resourceTemplates,
    prompts,
    digests: {
      tools: digestsOf(tools, (tool) => tool.name),
      resources: digestsOf(resources, (resource) => resource.uri),
      resourceTemplates: digestsOf(resourceTemplates, (template) => template.uriTemplate),
      prompts: digestsOf(prompts, (prompt) => prompt.name),
    },
  };
}

/**
 * The `@Complete` methods of the enabled prompts and templates. Core keeps them as an internal
 * member (keys `prompt:<name>:<argument>`, `resource:<template>:<variable>`), read here by shape.
 */
function completionsOf(app: McpApp): ManifestCompletion[] {
  const completions = (app as unknown as { completions?: ReadonlyMap<string, unknown> }).completions;
  const templates = new Set(app.map.templates.map((template) => template.entry.uriTemplate));
  const found: ManifestCompletion[] = [];
  for (const key of completions?.keys() ?? []) {
    const kind = key.slice(0, key.indexOf(':'));
    const target = key.slice(kind.length + 1, key.lastIndexOf(':'));
    const argument = key.slice(key.lastIndexOf(':') + 1);
    if (kind === 'prompt' && app.map.prompts.has(target)) found.push({ ref: { type: 'ref/prompt', name: target }, argument });
    if (kind === 'resource' && templates.has(target)) found.push({ ref: { type: 'ref/resource', uri: target }, argument });
  }
  const sortKey = (completion: ManifestCompletion) => canonicalJson(completion);
  return byKey(found, sortKey);
}

/**
 * The manifest of an app: every tool (name, title, description, schemas, annotations, task
 * support, icons, `_meta`), resource, template, prompt and completion, with the server info,
 * instructions and capabilities, as each era publishes them, each item with its content digest.
 * It reads the app's precomputed list results (every item, whoever may see it; a dynamic app as
 * it is now) and starts nothing.
 *
 * @example
 * import { buildManifest, formatManifest } from '@mcpkit/cli';
 * writeFileSync('mcp-manifest.json', formatManifest(buildManifest(app)));
 */
export function buildManifest(app: McpApp): Manifest {
  const eras = {} as Record<ManifestEraName, ManifestEra>;
  for (const era of MANIFEST_ERAS) eras[era] = eraOf(app, era);
  const content: Omit<Manifest, 'digest'> = {
    manifestVersion: MANIFEST_VERSION,
    server: structuredClone(app.info) as Implementation,
    ...(app.instructions !== undefined ? { instructions: app.instructions } : {}),
    eras,
    completions: completionsOf(app),
  };
  return { ...content, digest: contentDigest(content) };
}

/** A manifest as a file: canonical JSON (sorted keys), two-space indent, one final newline. */
export function formatManifest(manifest: Manifest): string {
  return `${canonicalJson(manifest, 2)}\n`;
}
