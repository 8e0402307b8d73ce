import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, EXIT } from '../cli-error';

const PNPM = 'pnpm@10.34.9';

/** A published package of the mcpkit checkout, packed into a tarball. */
export interface PackedPackage {
  /** `@mcpkit/core` */
  name: string;
  version: string;
  /** The tarball's file name in the destination folder, e.g. `mcpkit-core-0.1.0.tgz`. */
  file: string;
}

/** A package of the checkout as `publishedPackages` reads it: `internal` lists its @mcpkit dependencies. */
export interface WorkspacePackage {
  name: string;
  version: string;
  dir: string;
  internal: string[];
}

/**
 * The packages under `packages/` that are published (not private), each after the @mcpkit
 * packages it depends on. Read from the checkout, so a new package is packed without a list to update.
 */
export function publishedPackages(root: string): WorkspacePackage[] {
  const found = new Map<string, WorkspacePackage>();
  for (const folder of readdirSync(join(root, 'packages')).sort()) {
    const file = join(root, 'packages', folder, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name: string; version: string; private?: boolean; dependencies?: Record<string, string> };
    if (pkg.private) continue;
    const internal = Object.keys(pkg.dependencies ?? {}).filter((name) => name.startsWith('@mcpkit/'));
    found.set(pkg.name, { name: pkg.name, version: pkg.version, dir: join(root, 'packages', folder), internal });
  }
  const ordered: WorkspacePackage[] = [];
  const visit = (pkg: WorkspacePackage, path: readonly string[]) => {
    if (ordered.includes(pkg) || path.includes(pkg.name)) return;
    for (const dependency of pkg.internal) {
      const next = found.get(dependency);
      if (next) visit(next, [...path, pkg.name]);
    }
    ordered.push(pkg);
  };
  for (const pkg of found.values()) visit(pkg, []);
  return ordered;
}

function run(command: string, args: string[], cwd: string): { ok: boolean; output: string } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, CI: process.env.CI ?? '' } });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

/**
 * Runs `pnpm pack` for every published package of the checkout at `root` into `destination`:
 * packing turns their `workspace:^` ranges into `^<version>`, so whoever installs the tarballs
 * must point those ranges back at them (npm `overrides`, pnpm `pnpm.overrides`) while the
 * registry does not have these versions. One recursive `pnpm pack` packs them all: pnpm's start-up
 * (through npx, seconds of CPU) is paid once, not once per package.
 *
 * @throws CliError when a package is not built or pnpm fails.
 * @example
 * for (const { name, file } of packWorkspace(root, join(dir, 'vendor'))) specs[name] = `file:./vendor/${file}`;
 */
export function packWorkspace(root: string, destination: string, progress: (line: string) => void = () => undefined): PackedPackage[] {
  mkdirSync(destination, { recursive: true });
  const pnpm = run('pnpm', ['--version'], root).ok ? { command: 'pnpm', prefix: [] as string[] } : { command: 'npx', prefix: ['-y', PNPM] };
  const packages = publishedPackages(root);
  for (const pkg of packages) {
    if (!existsSync(join(pkg.dir, 'dist', 'index.js')))
      throw new CliError(`${pkg.name} is not built`, 'Run pnpm build in the mcpkit checkout first.', EXIT.FAILURE);
  }
  progress(`packing ${packages.map((pkg) => pkg.name).join(', ')}`);
  const filters = packages.flatMap((pkg) => ['--filter', pkg.name]);
  const result = run(pnpm.command, [...pnpm.prefix, '--recursive', ...filters, 'pack', '--pack-destination', destination], root);
  const packed = packages.map((pkg) => ({ name: pkg.name, version: pkg.version, file: `${pkg.name.slice(1).replace('/', '-')}-${pkg.version}.tgz` }));
  const missing = packed.find((pkg) => !existsSync(join(destination, pkg.file)));
  if (!result.ok || missing) {
    throw new CliError(
      `Could not pack ${missing?.name ?? 'the mcpkit packages'}: ${result.output.trim().split('\n').pop()}`,
      'Check that pnpm works in the mcpkit checkout.',
      EXIT.FAILURE,
    );
  }
  return packed;
}
