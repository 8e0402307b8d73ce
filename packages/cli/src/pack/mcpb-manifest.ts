import { CliError } from '../cli-error';
import type { McpTool } from '@mcpkit/core';
import type { Manifest } from '../contract/manifest';
import { DEFAULT_MANIFEST_ERA } from '../eras/manifest-eras';
import type { PackageJsonLike } from '../contract/server-json';

/** The `.mcpb` manifest version written (read by `mcpb validate` 2.x and Claude Desktop). */
export const MCPB_MANIFEST_VERSION = '0.3';

/** What `mcpb-manifest` reads of package.json besides the registry fields. */
export interface BundlePackageJson extends PackageJsonLike {
  author?: string | { name: string; email?: string; url?: string };
  license?: string;
  mcpkit?: PackageJsonLike['mcpkit'] & {
    /** An icon file of the package (PNG), shown by the desktop client. */
    icon?: string;
    /**
     * The bundle's `compatibility` (MCPB manifest: `platforms`, `runtimes`, `claude_desktop`),
     * as given. Without it, a bundle with native addons declares the platform and Node major it
     * was packed on.
     */
    compatibility?: Record<string, unknown>;
  };
}

function authorOf(pkg: BundlePackageJson): { name: string; email?: string; url?: string } {
  if (typeof pkg.author === 'object') return pkg.author;
  const match = /^([^<(]+?)\s*(?:<([^>]+)>)?\s*(?:\(([^)]+)\))?$/.exec(pkg.author ?? '');
  if (!match) return { name: pkg.name ?? 'unknown' };
  return { name: match[1], ...(match[2] ? { email: match[2] } : {}), ...(match[3] ? { url: match[3] } : {}) };
}

/** What package.json gives the bundle's listing when it has it: licence, homepage, icon. */
function listingOf(pkg: BundlePackageJson): Record<string, string> {
  return {
    ...(pkg.license ? { license: pkg.license } : {}),
    ...(pkg.homepage ? { homepage: pkg.homepage } : {}),
    ...(pkg.mcpkit?.icon ? { icon: pkg.mcpkit.icon } : {}),
  };
}

type DeclaredEnv = NonNullable<NonNullable<BundlePackageJson['mcpkit']>['env']>[string];

/** A `user_config` entry per declared environment variable: what the desktop client asks for. */
function userConfigOf(env: [string, DeclaredEnv][]): Record<string, unknown> {
  return Object.fromEntries(
    env.map(([name, declared]) => [
      name,
      {
        type: 'string',
        title: name,
        description: declared.description ?? name,
        required: declared.required ?? false,
        ...(declared.secret ? { sensitive: true } : {}),
        ...(declared.default !== undefined ? { default: declared.default } : {}),
      },
    ]),
  );
}

/** A tool the model is offered: one an MCP Apps view alone may call (`_meta.ui.visibility` without `model`) is not shown to users. */
function offeredToModel(tool: McpTool): boolean {
  const visibility = (tool._meta?.ui as { visibility?: unknown } | undefined)?.visibility;
  return !Array.isArray(visibility) || visibility.includes('model');
}

/**
 * The `manifest.json` of a `.mcpb` bundle: a node server launched as `node <entry> <args>` from
 * the unpacked bundle (`mcpkit.stdio` in package.json), the tools offered to the model (prompts are left to
 * `prompts/list`: a bundle's prompts are static texts), and a
 * `user_config` entry per declared environment variable (`mcpkit.env`), passed to the server.
 *
 * @throws CliError without a stdio entry (`mcpkit.stdio.entry`).
 */
export function buildMcpbManifest(pkg: BundlePackageJson, manifest: Manifest): Record<string, unknown> {
  const entry = pkg.mcpkit?.stdio?.entry;
  if (!entry)
    throw new CliError(
      'package.json has no "mcpkit": { "stdio": { "entry" } }',
      'Name the script that serves over stdio, e.g. "stdio": { "entry": "dist/main.js", "args": ["--stdio"] }.',
    );
  const era = manifest.eras[DEFAULT_MANIFEST_ERA];
  const env = Object.entries(pkg.mcpkit?.env ?? {});
  const info = manifest.server;
  return {
    manifest_version: MCPB_MANIFEST_VERSION,
    name: info.name,
    ...(info.title ? { display_name: info.title } : {}),
    version: pkg.version ?? info.version,
    description: pkg.description ?? info.description ?? info.title ?? info.name,
    author: authorOf(pkg),
    ...listingOf(pkg),
    server: {
      type: 'node',
      entry_point: entry,
      mcp_config: {
        command: 'node',
        args: [`\${__dirname}/${entry}`, ...(pkg.mcpkit?.stdio?.args ?? [])],
        ...(env.length > 0 ? { env: Object.fromEntries(env.map(([name]) => [name, `\${user_config.${name}}`])) } : {}),
      },
    },
    tools: era.tools.filter(offeredToModel).map((tool) => ({ name: tool.name, ...(tool.description ? { description: tool.description } : {}) })),
    ...(env.length > 0 ? { user_config: userConfigOf(env) } : {}),
    ...(pkg.mcpkit?.compatibility ? { compatibility: pkg.mcpkit.compatibility } : {}),
  };
}
