import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { CliError, EXIT } from '../cli-error';
import { appSource, GITIGNORE, JEST_CONFIG, readme, testSource, TSCONFIG, TSCONFIG_BUILD, type TemplateOptions } from './templates';

/** The mcpkit packages a new project uses, in the order they must be packed. */
const PACKAGES = ['core', 'stdio', 'fastify', 'testing', 'cli'] as const;
const PNPM = 'pnpm@10.34.9';

export interface ScaffoldOptions extends TemplateOptions {
  dir: string;
  pm: 'npm' | 'pnpm';
  /** Semver range for the published packages; without it, tarballs packed from this checkout. */
  registry?: string;
  install: boolean;
  progress: (line: string) => void;
}

/** The mcpkit checkout this CLI runs from (packages/cli/dist/new → the root). */
export function workspaceRoot(): string | undefined {
  const root = resolve(__dirname, '..', '..', '..', '..');
  return existsSync(join(root, 'pnpm-workspace.yaml')) && existsSync(join(root, 'packages', 'core', 'package.json')) ? root : undefined;
}

function run(command: string, args: string[], cwd: string): { ok: boolean; output: string } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, CI: process.env.CI ?? '' } });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

/**
 * Packs the workspace packages into `vendor`: `pnpm pack` turns their `workspace:*` ranges into
 * versions, and the project's npm `overrides` point those versions back at the tarballs, since
 * the registry does not have them.
 */
function packWorkspace(root: string, vendor: string, progress: (line: string) => void): Record<string, string> {
  mkdirSync(vendor, { recursive: true });
  const pnpm = run('pnpm', ['--version'], root).ok ? { command: 'pnpm', prefix: [] as string[] } : { command: 'npx', prefix: ['-y', PNPM] };
  const specs: Record<string, string> = {};
  for (const name of PACKAGES) {
    const dir = join(root, 'packages', name);
    if (!existsSync(join(dir, 'dist', 'index.js'))) throw new CliError(`@mcpkit/${name} is not built`, 'Run pnpm build in the mcpkit checkout first.', EXIT.FAILURE);
    progress(`packing @mcpkit/${name}`);
    const packed = run(pnpm.command, [...pnpm.prefix, 'pack', '--pack-destination', vendor], dir);
    if (!packed.ok) throw new CliError(`Could not pack @mcpkit/${name}: ${packed.output.trim().split('\n').pop()}`, 'Check that pnpm works in the mcpkit checkout.', EXIT.FAILURE);
    const version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
    specs[`@mcpkit/${name}`] = `file:./vendor/mcpkit-${name}-${version}.tgz`;
  }
  return specs;
}

function packageJson(options: ScaffoldOptions, specs: Record<string, string>): string {
  const spec = (name: string) => specs[name] ?? options.registry!;
  const pkg: Record<string, unknown> = {
    name: options.name,
    version: '0.1.0',
    private: true,
    description: 'An MCP server built with mcpkit',
    engines: { node: '>=20.19' },
    mcpkit: { app: 'dist/app.js' },
    scripts: {
      build: 'tsc -p tsconfig.build.json',
      test: 'jest',
      start: 'mcpkit start',
      dev: 'mcpkit dev',
    },
    dependencies: {
      '@mcpkit/cli': spec('@mcpkit/cli'),
      '@mcpkit/core': spec('@mcpkit/core'),
      '@mcpkit/fastify': spec('@mcpkit/fastify'),
      '@mcpkit/stdio': spec('@mcpkit/stdio'),
      'class-transformer': '^0.5.1',
      'class-validator': '^0.15.1',
      fastify: '^5.12.8',
      'reflect-metadata': '^0.2.2',
    },
    devDependencies: {
      '@mcpkit/testing': spec('@mcpkit/testing'),
      '@types/jest': '^30.0.0',
      '@types/node': '^20.19.0',
      jest: '^30.5.2',
      'ts-jest': '^29.4.15',
      typescript: '~5.9.3',
    },
  };
  if (!options.registry) {
    // Transitive @mcpkit/* ranges are plain versions after packing: send them to the tarballs too.
    if (options.pm === 'npm') pkg.overrides = Object.fromEntries(Object.keys(specs).map((name) => [name, `$${name}`]));
    else pkg.pnpm = { overrides: specs };
  }
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

function install(options: ScaffoldOptions): Promise<void> {
  const [command, args] = options.pm === 'npm' ? ['npm', ['install', '--no-audit', '--no-fund', '--loglevel=error']] : ['npx', ['-y', PNPM, 'install']];
  return new Promise((resolveInstall, reject) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: options.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setInterval(() => options.progress(`installing with ${options.pm}… ${Math.round((Date.now() - started) / 1000)} s`), 5_000);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code === 0) resolveInstall();
      else reject(new CliError(`${options.pm} install failed (exit ${code}): ${output.trim().split('\n').slice(-3).join(' / ')}`, `Fix the problem, then run ${options.pm} install in ${options.dir}.`, EXIT.FAILURE));
    });
  });
}

/** Writes the project, packs or pins the mcpkit packages, and installs. */
export async function scaffold(options: ScaffoldOptions): Promise<void> {
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(options.name)) {
    throw new CliError(`"${options.name}" is not a valid package name`, 'Use lower-case letters, digits, ".", "_" and "-", e.g. weather-server.');
  }
  if (existsSync(options.dir) && readdirSync(options.dir).length > 0) {
    throw new CliError(`${options.dir} exists and is not empty`, 'Pick another --dir or name, or empty the folder.');
  }
  mkdirSync(join(options.dir, 'src'), { recursive: true });
  mkdirSync(join(options.dir, 'test'), { recursive: true });
  let specs: Record<string, string> = {};
  if (!options.registry) {
    const root = workspaceRoot();
    if (!root) throw new CliError('This mcpkit CLI is not inside an mcpkit checkout, so there is nothing to pack', 'Pass --registry <range> to depend on published packages, e.g. --registry ^0.1.0.');
    specs = packWorkspace(root, join(options.dir, 'vendor'), options.progress);
  }
  const fill = (text: string) => text.replace(/\{\{name\}\}/g, options.name);
  const startCommand = `${process.execPath} ${join(resolve(options.dir), 'node_modules', '@mcpkit', 'cli', 'dist', 'cli.js')} start ${join(resolve(options.dir), 'dist', 'app.js')} --stdio`;
  const files: Record<string, string> = {
    'package.json': packageJson(options, specs),
    'tsconfig.json': TSCONFIG,
    'tsconfig.build.json': TSCONFIG_BUILD,
    'jest.config.js': JEST_CONFIG,
    '.gitignore': GITIGNORE,
    'README.md': fill(readme(options, startCommand)),
    'src/app.ts': fill(appSource()),
    'test/app.spec.ts': fill(testSource()),
  };
  for (const [path, text] of Object.entries(files)) writeFileSync(join(options.dir, path), text);
  options.progress(`wrote ${Object.keys(files).length} files to ${relative(process.cwd(), options.dir) || '.'}`);
  if (options.install) await install(options);
}
