import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { CliError, EXIT } from '../cli-error';
import { formatManifest } from '../contract/manifest';
import { loadManifest } from '../contract/read-manifest';
import { err, out } from '../output';

/** Options of `mcpkit manifest`. */
export interface ManifestCommandOptions {
  /** Write the manifest to this file instead of stdout. */
  out?: string;
  /** With `out`: write nothing, exit 1 when the file differs from the app's manifest. */
  check?: boolean;
  export?: string;
}

/** `mcpkit manifest [entry] [--out file] [--check]`: the app's contract as canonical JSON. */
export function manifest(entry: string | undefined, options: ManifestCommandOptions): number {
  const text = formatManifest(loadManifest(entry, { export: options.export }).manifest);
  if (options.check) {
    if (!options.out) throw new CliError('--check needs --out <file>: the manifest to compare with', 'mcpkit manifest --out mcp-manifest.json --check');
    if (existsSync(options.out) && readFileSync(options.out, 'utf8') === text) return EXIT.OK;
    err(`${options.out} is not the manifest of this app; regenerate it: mcpkit manifest${entry ? ` ${entry}` : ''} --out ${options.out}`);
    return EXIT.FAILURE;
  }
  if (options.out) writeFileSync(options.out, text);
  else out(text.slice(0, -1));
  return EXIT.OK;
}
