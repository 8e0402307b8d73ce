import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CliError, EXIT } from '../cli-error';
import { loadManifest } from '../contract/read-manifest';
import { buildServerJson, type PackageJsonLike } from '../contract/server-json';
import { out } from '../output';

/** Options of `mcpkit server-json`. */
export interface ServerJsonCommandOptions {
  /** Write it to this file (default: stdout). */
  out?: string;
  /** The Streamable HTTP URL the server is hosted at (default: package.json's mcpkit.remote). */
  remote?: string;
  export?: string;
}

/** The nearest package.json from `cwd` up, and its folder. */
export function nearestPackageJson(cwd = process.cwd()): { pkg: PackageJsonLike; dir: string } {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) return { pkg: JSON.parse(readFileSync(path, 'utf8')) as PackageJsonLike, dir };
    if (dirname(dir) === dir) throw new CliError('No package.json found here or above', 'Run it inside the project of the server.');
  }
}

/** `mcpkit server-json [entry] [--out server.json] [--remote url]`: the registry's server.json of the project. */
export function serverJson(entry: string | undefined, options: ServerJsonCommandOptions): number {
  const { pkg } = nearestPackageJson();
  const document = buildServerJson(pkg, loadManifest(entry, { export: options.export }).manifest, { remote: options.remote });
  const text = `${JSON.stringify(document, null, 2)}\n`;
  if (options.out) writeFileSync(options.out, text);
  else out(text.slice(0, -1));
  return EXIT.OK;
}
