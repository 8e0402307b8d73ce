import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { CliError, EXIT } from '../cli-error';
import { CLI_VERSION } from '../version';
import { packWorkspace } from './pack-workspace';
import { appSource, GITIGNORE, JEST_CONFIG, readme, testSource, TSCONFIG, TSCONFIG_BUILD, type PackageSource, type TemplateOptions } from './templates';

const PNPM = 'pnpm@10.34.9';

export interface ScaffoldOptions extends TemplateOptions {
  dir: string;
  pm: 'npm' | 'pnpm';
  /** Semver range for the published packages; without it, tarballs packed from this checkout, or (outside one) this CLI's version. */
  registry?: string;
  install: boolean;
  progress: (line: string) => void;
}

/** The mcpkit checkout this CLI runs from (packages/cli/dist/new → the root). */
export function workspaceRoot(): string | undefined {
  const root = resolve(__dirname, '..', '..', '..', '..');
  return existsSync(join(root, 'pnpm-workspace.yaml')) && existsSync(join(root, 'packages', 'core', 'package.json')) ? root : undefined;
}

function packageJson(options: ScaffoldOptions, specs: Record<string, string>): string {
  const spec = (name: string) => specs[name] ?? options.registry!;
  const pkg: Record<string, unknown> = {
    name: options.name,
    version: '0.1.0',
    private: true,
    description: 'An MCP server built with mcpkit',
    // tsc writes CommonJS; said outright, because Deno reads a .js of a package without "type" as an ES module (`exports is not defined`).
    type: 'commonjs',
    engines: { node: '>=20.19' },
    mcpkit: { app: 'dist/app.js' },
    scripts: {
      build: 'tsc -p tsconfig.build.json',
      test: 'jest',
      // An HTTP-only project serves HTTP by default; with stdio (alone or both), stdio is the default.
      start: options.transport === 'http' ? 'mcpkit start --http' : 'mcpkit start',
      dev: options.transport === 'http' ? 'mcpkit dev --http' : 'mcpkit dev',
    },
    dependencies: {
      '@mcpkit/cli': spec('@mcpkit/cli'),
      '@mcpkit/core': spec('@mcpkit/core'),
      // Only the transports the project serves (to write an entry of its own); the CLI brings what `mcpkit start` needs.
      ...(options.transport === 'stdio' ? {} : { '@mcpkit/fastify': spec('@mcpkit/fastify') }),
      ...(options.transport === 'http' ? {} : { '@mcpkit/stdio': spec('@mcpkit/stdio') }),
      'class-transformer': '^0.5.1',
      'class-validator': '^0.15.1',
      ...(options.transport === 'stdio' ? {} : { fastify: '^5.12.8' }),
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
    // Transitive @mcpkit/* ranges (^<version> after packing) go to the tarballs too. npm wants a
    // direct dependency overridden by reference ($name), any other package by its spec.
    const direct = { ...(pkg.dependencies as Record<string, string>), ...(pkg.devDependencies as Record<string, string>) };
    if (options.pm === 'npm') pkg.overrides = Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, name in direct ? `$${name}` : spec]));
    else pkg.pnpm = { overrides: specs };
  }
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** The line of a failed install's output that says why (a network error, a missing version), else its last lines. */
function installFailure(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.replace(/^npm (error|ERR!) ?/, '').trim())
    .filter((line) => line !== '' && !/complete log of this run|behind a proxy|npm help config|^at /.test(line));
  return lines.find((line) => /reason:|ERR_PNPM|\bE404\b|ETARGET|No matching version/.test(line)) ?? lines.slice(-3).join(' / ');
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
      else
        reject(
          new CliError(
            `${options.pm} install failed (exit ${code}): ${installFailure(output)}`,
            `Check that the registry ${options.pm} uses (${options.pm} config get registry) is reachable, then run mcpkit new again; --no-install writes the files without installing.`,
            EXIT.FAILURE,
          ),
        );
    });
  });
}

/**
 * Where the @mcpkit packages come from: `--registry <range>`; else tarballs packed from the
 * checkout this CLI runs in; else (a CLI installed from a registry) the registry, at exactly this
 * CLI's version: the packages pin each other exactly while `@mcpkit/core/transport` is unstable,
 * so a range could install a core beside the one the CLI brings.
 */
function packageSource(options: ScaffoldOptions, specs: Record<string, string>): { options: ScaffoldOptions; source: PackageSource } {
  if (options.registry) return { options, source: { registry: options.registry } };
  const root = workspaceRoot();
  if (!root) {
    options.progress(`depending on @mcpkit/* ${CLI_VERSION} from the npm registry`);
    return { options: { ...options, registry: CLI_VERSION }, source: { registry: CLI_VERSION } };
  }
  for (const { name, file } of packWorkspace(root, join(options.dir, 'vendor'), options.progress)) specs[name] = `file:./vendor/${file}`;
  return { options, source: { checkout: root, pm: options.pm } };
}

function writeProject(given: ScaffoldOptions): void {
  mkdirSync(join(given.dir, 'src'), { recursive: true });
  mkdirSync(join(given.dir, 'test'), { recursive: true });
  const specs: Record<string, string> = {};
  const { options, source } = packageSource(given, specs);
  const fill = (text: string) => text.replace(/\{\{name\}\}/g, options.name);
  const startCommand = `${process.execPath} ${join(resolve(options.dir), 'node_modules', '@mcpkit', 'cli', 'dist', 'cli.js')} start ${join(resolve(options.dir), 'dist', 'app.js')} --stdio`;
  const files: Record<string, string> = {
    'package.json': packageJson(options, specs),
    'tsconfig.json': TSCONFIG,
    'tsconfig.build.json': TSCONFIG_BUILD,
    'jest.config.js': JEST_CONFIG,
    '.gitignore': GITIGNORE,
    'README.md': fill(readme(options, startCommand, source)),
    'src/app.ts': fill(appSource()),
    'test/app.spec.ts': fill(testSource()),
  };
  for (const [path, text] of Object.entries(files)) writeFileSync(join(options.dir, path), text);
  options.progress(`wrote ${Object.keys(files).length} files to ${relative(process.cwd(), options.dir) || '.'}`);
}

/**
 * Writes the project, packs or pins the mcpkit packages, and installs. A failure on the way
 * (packing, an unreachable registry) leaves nothing behind: the folder is removed if this call
 * created it, emptied otherwise, and the error says so.
 */
export async function scaffold(options: ScaffoldOptions): Promise<void> {
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(options.name)) {
    throw new CliError(`"${options.name}" is not a valid package name`, 'Use lower-case letters, digits, ".", "_" and "-", e.g. weather-server.');
  }
  const existed = existsSync(options.dir);
  if (existed && readdirSync(options.dir).length > 0) {
    throw new CliError(`${options.dir} exists and is not empty`, 'Pick another --dir or name, or empty the folder.');
  }
  try {
    writeProject(options);
    if (options.install) await install(options);
  } catch (error) {
    if (existed) for (const entry of readdirSync(options.dir)) rmSync(join(options.dir, entry), { recursive: true, force: true });
    else rmSync(options.dir, { recursive: true, force: true });
    const cleaned = existed ? `${options.dir} was emptied again` : `${options.dir} was removed`;
    if (error instanceof CliError) throw new CliError(`${error.message} (${cleaned})`, error.hint, error.exitCode);
    throw error;
  }
}
