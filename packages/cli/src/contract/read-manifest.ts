import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { CliError } from '../cli-error';
import { loadApp, resolveEntry } from '../load-app';
import { buildManifest, MANIFEST_ERAS, MANIFEST_VERSION, type Manifest } from './manifest';

/**
 * A manifest from its JSON text, checked for the parts every reader relies on.
 *
 * @throws CliError naming `source` when the text is not a manifest of this version.
 */
export function parseManifest(text: string, source: string): Manifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${source} is not JSON: ${(error as Error).message}`, 'Give a file written by mcpkit manifest, or an app.');
  }
  const manifest = parsed as Partial<Manifest> | null;
  if (manifest === null || typeof manifest !== 'object' || manifest.manifestVersion === undefined)
    throw new CliError(`${source} is not an mcpkit manifest (no manifestVersion)`, 'Give a file written by mcpkit manifest, or an app.');
  if (manifest.manifestVersion !== MANIFEST_VERSION)
    throw new CliError(
      `${source} is a manifest of version ${String(manifest.manifestVersion)}; this mcpkit reads version ${MANIFEST_VERSION}`,
      'Regenerate it with this mcpkit: mcpkit manifest --out <file>.',
    );
  for (const era of MANIFEST_ERAS) {
    const surface = manifest.eras?.[era];
    if (
      !surface ||
      !Array.isArray(surface.tools) ||
      !Array.isArray(surface.resources) ||
      !Array.isArray(surface.resourceTemplates) ||
      !Array.isArray(surface.prompts)
    )
      throw new CliError(`${source} has no complete ${era} surface`, 'Regenerate it with mcpkit manifest --out <file>.');
  }
  return manifest as Manifest;
}

/** Where a surface comes from, for messages: a manifest file or an app module. */
export interface LoadedManifest {
  manifest: Manifest;
  /** The path as given, or the app's entry. */
  source: string;
}

/**
 * A manifest, from a `.json` file written by `mcpkit manifest` or built from an app (an entry
 * module, as `mcpkit inspect` takes; undefined: the project's own app).
 */
export function loadManifest(given: string | undefined, options: { export?: string; cwd?: string } = {}): LoadedManifest {
  const cwd = options.cwd ?? process.cwd();
  if (given !== undefined && given.endsWith('.json')) {
    const path = isAbsolute(given) ? given : resolve(cwd, given);
    if (!existsSync(path)) throw new CliError(`No such file: ${given}`, 'Write it first: mcpkit manifest --out <file>.');
    return { manifest: parseManifest(readFileSync(path, 'utf8'), given), source: given };
  }
  const entry = resolveEntry(given, cwd);
  return { manifest: buildManifest(loadApp(entry, { export: options.export })), source: given ?? entry };
}
