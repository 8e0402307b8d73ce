import { CliError } from '../cli-error';
import type { Manifest } from './manifest';

/** The registry schema `server.json` is written for (the MCP registry's current one). */
export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** An environment variable the server reads, as declared in package.json's `"mcpkit": { "env" }`. */
export interface DeclaredEnv {
  description?: string;
  /** The server does not start without it. */
  required?: boolean;
  /** A password or token: clients keep it out of sight. */
  secret?: boolean;
  default?: string;
}

/** What `server-json` and `pack` read of package.json. */
export interface PackageJsonLike {
  name?: string;
  version?: string;
  description?: string;
  homepage?: string;
  mcpName?: string;
  repository?: string | { type?: string; url?: string; directory?: string };
  bin?: string | Record<string, string>;
  mcpkit?: {
    /** How a client launches the server over stdio: the script and its arguments. */
    stdio?: { entry?: string; args?: string[] };
    env?: Record<string, DeclaredEnv>;
    /** The Streamable HTTP URL where the server is hosted, if it is. */
    remote?: string;
  };
}

/** A repository URL as the registry wants it: browsable, `source` the forge. */
function repositoryOf(pkg: PackageJsonLike): { url: string; source: string; subfolder?: string } | undefined {
  const given = typeof pkg.repository === 'string' ? { url: pkg.repository } : pkg.repository;
  if (!given?.url) return undefined;
  const url = given.url
    .replace(/^git\+/, '')
    .replace(/\.git$/, '')
    .replace(/^github:/, 'https://github.com/');
  const source = /github\.com/.test(url) ? 'github' : /gitlab\.com/.test(url) ? 'gitlab' : 'git';
  return { url, source, ...(given.directory ? { subfolder: given.directory } : {}) };
}

/** The declared environment as the registry's `environmentVariables`. */
export function environmentVariables(pkg: PackageJsonLike): Record<string, unknown>[] {
  return Object.entries(pkg.mcpkit?.env ?? {}).map(([name, env]) => ({
    name,
    ...(env.description !== undefined ? { description: env.description } : {}),
    ...(env.required ? { isRequired: true } : {}),
    ...(env.secret ? { isSecret: true } : {}),
    ...(env.default !== undefined ? { default: env.default } : {}),
  }));
}

/**
 * The MCP registry's `server.json` (schema 2025-12-11) of a package: name from `mcpName`,
 * version and description from package.json, title and icons from the app's server info; an
 * npm package launched over stdio with the declared arguments (`mcpkit.stdio.args`) and
 * environment (`mcpkit.env`); a `streamable-http` remote when a URL is given (`remote`, else
 * `mcpkit.remote`).
 *
 * @throws CliError when package.json lacks what the registry requires (mcpName, version, a description of 1-100 characters).
 * @example
 * const serverJson = buildServerJson(JSON.parse(readFileSync('package.json', 'utf8')), buildManifest(app), { remote: 'https://notes.example.com/mcp' });
 */
export function buildServerJson(pkg: PackageJsonLike, manifest: Manifest, options: { remote?: string } = {}): Record<string, unknown> {
  const { mcpName, name, version, description } = registryIdentity(pkg, manifest);
  const remote = options.remote ?? pkg.mcpkit?.remote;
  const repository = repositoryOf(pkg);
  // The registry takes only https icons.
  const icons = (manifest.server.icons ?? []).filter((icon) => icon.src.startsWith('https://'));
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: mcpName,
    ...(manifest.server.title ? { title: manifest.server.title } : {}),
    description,
    version,
    ...(pkg.homepage ? { websiteUrl: pkg.homepage } : {}),
    ...(repository ? { repository } : {}),
    ...(icons.length > 0 ? { icons } : {}),
    packages: [npmPackage(pkg, name, version)],
    ...(remote ? { remotes: [{ type: 'streamable-http', url: remote }] } : {}),
  };
}

/** What the registry requires: `mcpName`, `name`, `version`, and a description of 1-100 characters (package.json's, else the server's). */
function registryIdentity(pkg: PackageJsonLike, manifest: Manifest): { mcpName: string; name: string; version: string; description: string } {
  const fix = 'Add it to package.json: the registry requires it.';
  if (!pkg.mcpName) throw new CliError('package.json has no "mcpName" (the server name in the registry, e.g. "io.github.you/notes")', fix);
  if (!pkg.name || !pkg.version) throw new CliError('package.json has no "name" or "version"', fix);
  const description = pkg.description ?? manifest.server.description;
  if (!description || description.length > 100)
    throw new CliError(`package.json's "description" must have 1 to 100 characters (it has ${description?.length ?? 0})`, fix);
  return { mcpName: pkg.mcpName, name: pkg.name, version: pkg.version, description };
}

/** The npm package, launched over stdio with the declared arguments and environment. */
function npmPackage(pkg: PackageJsonLike, name: string, version: string): Record<string, unknown> {
  const env = environmentVariables(pkg);
  const args = pkg.mcpkit?.stdio?.args ?? [];
  return {
    registryType: 'npm',
    registryBaseUrl: 'https://registry.npmjs.org',
    identifier: name,
    version,
    transport: { type: 'stdio' },
    ...(args.length > 0 ? { packageArguments: args.map((value) => ({ type: 'positional', value })) } : {}),
    ...(env.length > 0 ? { environmentVariables: env } : {}),
  };
}
