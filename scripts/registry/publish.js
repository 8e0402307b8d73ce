// Packs every publishable @mcpkit package with `pnpm pack`, checks the tarballs, and publishes them.
// `pnpm pack` (and `pnpm publish`) turn `workspace:*` ranges into the sibling's exact version;
// `npm pack` leaves `workspace:*` in the manifest, which no registry install can resolve: the
// release path packs with pnpm, and this script refuses a tarball that still says `workspace:`.
//
//   node scripts/registry/publish.js --local            a throwaway Verdaccio with everything published, until Ctrl-C
//   node scripts/registry/publish.js --registry <url>   publish to <url> with npm's own credentials for it (the release)
//   node scripts/registry/publish.js --check            pack and check only (manifests, publint, arethetypeswrong)
//
// The packages are found, not listed: every package.json under packages/ that is not private.
'use strict';

const { spawn, spawnSync, execFileSync } = require('node:child_process');
const { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const PNPM = 'pnpm@10.34.9';
const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];
const BIN = join(ROOT, 'node_modules', '.bin');

/** Every package under packages/ that is not private, each after the @mcpkit packages it depends on. */
function publishablePackages(root = ROOT) {
  const found = new Map();
  for (const folder of readdirSync(join(root, 'packages')).sort()) {
    const file = join(root, 'packages', folder, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    if (manifest.private) continue;
    found.set(manifest.name, { name: manifest.name, version: manifest.version, folder, dir: join(root, 'packages', folder), manifest });
  }
  const ordered = [];
  const visit = (pkg, path) => {
    if (ordered.includes(pkg) || path.includes(pkg.name)) return;
    for (const name of Object.keys(pkg.manifest.dependencies ?? {})) if (found.has(name)) visit(found.get(name), [...path, pkg.name]);
    ordered.push(pkg);
  };
  for (const pkg of found.values()) visit(pkg, []);
  return ordered;
}

/** Runs a command to its end; resolves with its status and output (never rejects). */
function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: -1, output: `${output}${error.message}` }));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

/** The pinned pnpm as `[command, argument prefix]`: the one on PATH when it is that version, else through npx. */
function pnpmCommand() {
  return spawnSync('pnpm', ['--version'], { encoding: 'utf8' }).stdout?.trim() === PNPM.split('@')[1] ? ['pnpm', []] : ['npx', ['-y', PNPM]];
}

/**
 * `pnpm pack` of every package into `destination` in one recursive pnpm run (pnpm's start-up, seconds
 * of CPU through npx, is paid once); resolves with each tarball's path.
 */
async function packAll(packages, destination) {
  const [command, prefix] = pnpmCommand();
  for (const pkg of packages) if (!existsSync(join(pkg.dir, 'dist'))) throw new Error(`${pkg.name} is not built: run pnpm build first`);
  const filters = packages.flatMap((pkg) => ['--filter', pkg.name]);
  const result = await run(command, [...prefix, '--recursive', ...filters, 'pack', '--pack-destination', destination], { cwd: ROOT });
  return packages.map((pkg) => {
    const tarball = join(destination, `${pkg.name.slice(1).replace('/', '-')}-${pkg.version}.tgz`);
    if (result.code !== 0 || !existsSync(tarball)) throw new Error(`pnpm pack of ${pkg.name} failed (exit ${result.code}):\n${result.output.slice(-2000)}`);
    return { ...pkg, tarball };
  });
}

/** The manifest and the file list of a tarball. */
function readTarball(file) {
  const files = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((entry) => entry.replace(/^package\//, ''));
  const manifest = JSON.parse(execFileSync('tar', ['-xOzf', file, 'package/package.json'], { encoding: 'utf8' }));
  const readme = files.includes('README.md') ? execFileSync('tar', ['-xOzf', file, 'package/README.md'], { encoding: 'utf8' }) : '';
  return { manifest, files, readme };
}

/**
 * What is wrong with a packed package, as sentences (none: nothing). `versions` maps every
 * publishable package's name to its workspace version: a sibling is pinned to exactly that.
 */
function tarballProblems({ manifest, files, readme }, versions) {
  const problems = [];
  const name = manifest.name;
  for (const field of DEPENDENCY_FIELDS) {
    for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
      if (String(range).startsWith('workspace:')) problems.push(`${name}: ${field}.${dependency} is still "${range}"`);
      else if (field !== 'devDependencies' && versions.has(dependency) && range !== versions.get(dependency))
        problems.push(`${name}: ${field}.${dependency} is "${range}", not the exact sibling version ${versions.get(dependency)}`);
    }
  }
  if (manifest.type !== 'commonjs' && manifest.type !== 'module') problems.push(`${name}: no "type"`);
  if (!manifest.license) problems.push(`${name}: no "license"`);
  if (!manifest.engines?.node) problems.push(`${name}: no "engines.node"`);
  if (!manifest.repository?.url || !manifest.repository?.directory) problems.push(`${name}: no "repository" with "url" and "directory"`);
  if (!manifest.exports || !manifest.types) problems.push(`${name}: no "exports" and "types"`);
  for (const required of ['package.json', 'README.md', 'LICENSE']) if (!files.includes(required)) problems.push(`${name}: ${required} is not in the tarball`);
  const stray = files.filter((file) => /(^|\/)(src|test)\/|\.spec\.|\.d\.ts\.map$|tsbuildinfo$/.test(file));
  if (stray.length > 0) problems.push(`${name}: ships ${stray.length} files it should not (${stray.slice(0, 5).join(', ')})`);
  const relative = readme.match(/\]\((?!https?:|#|mailto:)[^)]*\)/g) ?? [];
  if (relative.length > 0) problems.push(`${name}: README.md has relative links, broken on a registry (${relative.slice(0, 3).join(', ')})`);
  return problems;
}

/** publint (suggestions included) and arethetypeswrong over one tarball: their reports, empty when clean. */
async function lintTarball(file) {
  const reports = [];
  const publint = await run(join(BIN, 'publint'), ['run', file, '--level', 'suggestion', '--strict'], { cwd: ROOT });
  if (publint.code !== 0 || !/All good!/.test(publint.output)) reports.push(`publint ${file}:\n${publint.output.trim()}`);
  const attw = await run(join(BIN, 'attw'), [file, '--format', 'ascii', '--no-color', '--no-emoji'], { cwd: ROOT });
  if (attw.code !== 0) reports.push(`attw ${file}:\n${attw.output.trim()}`);
  return reports;
}

/** Publishes the tarballs in dependency order with npm (they were packed by pnpm: no workspace ranges). */
async function publishAll(packed, { registry, userconfig, dryRun = false }) {
  for (const pkg of packed) {
    const args = ['publish', pkg.tarball, '--registry', registry, '--access', 'public', '--tag', 'latest'];
    if (userconfig) args.push('--userconfig', userconfig);
    if (dryRun) args.push('--dry-run');
    const result = await run('npm', args, { cwd: tmpdir() });
    if (result.code !== 0) throw new Error(`npm publish ${pkg.name} to ${registry} failed (exit ${result.code}):\n${result.output.slice(-2000)}`);
  }
}

/** Packs and checks every package; throws with every problem found. */
async function packAndCheck(destination, { lint = true } = {}) {
  const packages = publishablePackages();
  const packed = await packAll(packages, destination);
  const versions = new Map(packages.map((pkg) => [pkg.name, pkg.version]));
  const problems = packed.flatMap((pkg) => tarballProblems(readTarball(pkg.tarball), versions));
  if (lint) {
    const reports = await Promise.all(packed.map((pkg) => lintTarball(pkg.tarball)));
    problems.push(...reports.flat());
  }
  if (problems.length > 0) throw new Error(`the packed packages are not ready to publish:\n- ${problems.join('\n- ')}`);
  return packed;
}

async function main(argv) {
  const flag = (name) => argv.includes(name);
  const value = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const target = value('--registry');
  if (!flag('--check') && !flag('--local') && !target) throw new Error('say where: --registry <url>, --local or --check');
  const destination = mkdtempSync(join(tmpdir(), 'mcpkit-pack-'));
  let registry;
  let stopped;
  const interrupted = new Promise((resolve) => (stopped = resolve));
  // Ctrl-C at any step: Verdaccio is killed by its PID and the temporary folders go (a signal's
  // default action would skip both).
  const onSignal = (signal) => {
    registry?.stop();
    rmSync(destination, { recursive: true, force: true });
    stopped();
    if (!flag('--local') || !registry) process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const packed = await packAndCheck(destination);
    console.log(`packed and checked ${packed.length} packages: ${packed.map((pkg) => `${pkg.name}@${pkg.version}`).join(', ')}`);
    if (flag('--check')) return;
    if (flag('--local')) {
      registry = await require('./registry').startRegistry();
      const userconfig = join(registry.dir, '.npmrc');
      registry.npmrc(userconfig);
      await publishAll(packed, { registry: registry.url, userconfig });
      console.log(`published to ${registry.url} (Verdaccio, PID ${registry.pid}); Ctrl-C stops it.`);
      console.log(`try it: npm install --registry ${registry.url} @mcpkit/core @mcpkit/cli reflect-metadata class-validator class-transformer`);
      await interrupted;
      return;
    }
    await publishAll(packed, { registry: target, dryRun: flag('--dry-run') });
    console.log(`published ${packed.length} packages to ${target}${flag('--dry-run') ? ' (dry run)' : ''}`);
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    registry?.stop();
    rmSync(destination, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error.message);
    process.exitCode = 1;
  });
}

module.exports = { publishablePackages, pnpmCommand, packAll, readTarball, tarballProblems, lintTarball, publishAll, packAndCheck };
