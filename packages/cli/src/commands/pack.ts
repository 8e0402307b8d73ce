import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXIT } from '../cli-error';
import { loadManifest } from '../contract/read-manifest';
import { err, out } from '../output';
import { bundleFiles } from '../pack/bundle-files';
import { buildMcpbManifest, type BundlePackageJson } from '../pack/mcpb-manifest';
import { nativeAddons } from '../pack/native-addons';
import { zip } from '../pack/zip';
import { nearestPackageJson } from './server-json';

/** Options of `mcpkit pack`. */
export interface PackCommandOptions {
  /** The bundle file (default `<name>-<version>.mcpb`). */
  out?: string;
  export?: string;
}

/**
 * `mcpkit pack [entry] [--out x.mcpb]`: a `.mcpb` bundle of the built project: manifest.json,
 * the project's files and its production dependencies as installed. A bundle with native addons
 * declares the platform and Node major it was packed on, unless package.json's
 * `mcpkit.compatibility` says otherwise (see `nativeAddons`).
 */
export function pack(entry: string | undefined, options: PackCommandOptions): number {
  const { pkg, dir } = nearestPackageJson();
  const manifest = buildMcpbManifest(pkg as BundlePackageJson, loadManifest(entry, { export: options.export }).manifest);
  const files = bundleFiles(dir).filter((file) => file.path !== 'manifest.json');
  const addons = nativeAddons(
    files.map((file) => file.path),
    process.platform,
    process.arch,
    process.version,
  );
  if (addons && manifest.compatibility === undefined) {
    manifest.compatibility = addons.compatibility;
    err(`note  ${addons.note}`);
  }
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  const archive = zip([{ path: 'manifest.json', data: Buffer.from(text), mode: 0o644 }, ...files]);
  const target = resolve(options.out ?? `${String(manifest.name)}-${String(manifest.version)}.mcpb`);
  writeFileSync(target, archive);
  out(`${target}: ${files.length + 1} files, ${archive.length} bytes`);
  return EXIT.OK;
}
