import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sh, type ShResult } from './sh';

// mcpkit as a user gets it: every publishable package packed with pnpm, checked (manifests,
// publint, arethetypeswrong) and published to a real registry (Verdaccio on a loopback port,
// scripts/registry/), then installed with npm into folders outside the workspace: the README's
// install line and example, compiled with tsc for each module style (CommonJS, ESM with nodenext,
// bundler resolution), served over stdio and HTTP to the official SDK client; and `npx mcpkit new`
// from that registry, whose project installs from it and passes its own tests. The same functions
// publish a release (CONTRIBUTING.md, "Releasing").

const ROOT = join(__dirname, '..', '..', '..');

interface Packed {
  name: string;
  version: string;
  tarball: string;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain Node script of the repository
const publish = require(join(ROOT, 'scripts', 'registry', 'publish.js')) as {
  publishablePackages(): Array<{ name: string; version: string }>;
  packAndCheck(destination: string): Promise<Packed[]>;
  publishAll(packed: Packed[], options: { registry: string; userconfig: string }): Promise<void>;
  readTarball(file: string): { manifest: Record<string, unknown>; files: string[]; readme: string };
  tarballProblems(tarball: { manifest: Record<string, unknown>; files: string[]; readme: string }, versions: Map<string, string>): string[];
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain Node script of the repository
const registryModule = require(join(ROOT, 'scripts', 'registry', 'registry.js')) as {
  startRegistry(): Promise<{ url: string; dir: string; pid: number; npmrc(file: string): void; log(): string; stop(): void }>;
};

/** The README's install line, word for word (README.md, "Install"). */
const README_INSTALL = ['@mcpkit/core', '@mcpkit/cli', 'reflect-metadata', 'class-validator', 'class-transformer'];
const TOOLCHAIN = ['typescript@~5.9.3', '@types/node@^20.19.0'];
const EXAMPLE = readFileSync(join(ROOT, 'docs', 'examples', 'readme.example.ts'), 'utf8');

// An entry of the user's own (docs/stdio.md, docs/http.md): stdio, or HTTP on a free port.
const MAIN = `import { serveStdio } from '@mcpkit/stdio';
import { serveHttp } from '@mcpkit/fastify';
import { app } from './app.js';

async function main(): Promise<void> {
  if (process.argv.includes('--http')) {
    const server = await serveHttp(app, { port: 0 });
    console.error(\`listening on \${server.url}\`);
  } else {
    serveStdio(app);
  }
}
void main();
`;

// Each subpath's types resolve and are not \`any\` (an unresolved subpath under skipLibCheck is).
const SUBPATHS = `import type * as transport from '@mcpkit/core/transport';
import type * as compileCache from '@mcpkit/core/compile-cache';
import type { McpApp } from '@mcpkit/core';

type Typed<T> = 0 extends 1 & T ? 'any' : 'typed';
export const transportTyped: Typed<typeof transport> = 'typed';
export const compileCacheTyped: Typed<typeof compileCache> = 'typed';
export const appTyped: Typed<McpApp> = 'typed';
`;

// What the README asks of a tsconfig (the options `mcpkit new` writes), with the declarations of
// every installed package checked too (skipLibCheck off).
const COMPILER = {
  target: 'ES2022',
  strict: true,
  esModuleInterop: true,
  skipLibCheck: false,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  useDefineForClassFields: false,
  strictPropertyInitialization: false,
  outDir: 'dist',
  rootDir: 'src',
  types: ['node'],
};

interface Consumer {
  style: string;
  type: 'commonjs' | 'module';
  install: string[];
  compilerOptions: Record<string, unknown>;
  files: Record<string, string>;
}

const CONSUMERS: Consumer[] = [
  // What `mcpkit new` writes; node10 resolution ignores `exports`: the subpaths need typesVersions.
  {
    style: 'commonjs',
    type: 'commonjs',
    install: README_INSTALL,
    compilerOptions: { module: 'commonjs', moduleResolution: 'node10' },
    files: { 'src/app.ts': EXAMPLE, 'src/subpaths.ts': SUBPATHS },
  },
  {
    style: 'nodenext',
    type: 'module',
    install: [...README_INSTALL.filter((name) => name !== '@mcpkit/cli'), '@mcpkit/stdio', '@mcpkit/fastify'],
    compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' },
    files: { 'src/app.ts': EXAMPLE, 'src/main.ts': MAIN, 'src/subpaths.ts': SUBPATHS },
  },
  {
    style: 'bundler',
    type: 'module',
    install: [...README_INSTALL.filter((name) => name !== '@mcpkit/cli'), '@mcpkit/stdio', '@mcpkit/fastify'],
    compilerOptions: { module: 'esnext', moduleResolution: 'bundler' },
    files: { 'src/app.ts': EXAMPLE, 'src/main.ts': MAIN, 'src/subpaths.ts': SUBPATHS },
  },
];

/** Says what failed: the command, its exit code and the end of its output. */
function explain(what: string, result: ShResult): string {
  return `${what} exited ${result.code}\n--- stdout\n${result.stdout.slice(-3000)}\n--- stderr\n${result.stderr.slice(-3000)}`;
}

async function succeed(what: string, command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv, timeoutMs = 300_000): Promise<ShResult> {
  const result = await sh(command, args, cwd, timeoutMs, env);
  if (result.code !== 0) throw new Error(explain(what, result));
  return result;
}

/** Lists and calls the greeter's tool over stdio with the official SDK client. */
async function greetOverStdio(command: string, args: string[], cwd: string): Promise<unknown> {
  const client = new Client({ name: 'registry-test', version: '1' });
  const transport = new StdioClientTransport({ command, args, cwd, env: { ...process.env, LOG_LEVEL: 'warn' } as Record<string, string>, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    await client.connect(transport);
    return await greet(client);
  } catch (error) {
    throw new Error(`${command} ${args.join(' ')} over stdio in ${cwd}: ${String(error)}\n--- stderr\n${stderr.slice(-3000)}`);
  } finally {
    await client.close();
  }
}

/** Starts an HTTP server that prints `listening on <url>`, lists and calls its tool, and kills it by PID. */
async function greetOverHttp(command: string, args: string[], cwd: string): Promise<unknown> {
  // Its own process group: `npx` starts the server as a grandchild, which a signal to npx alone would orphan.
  const child: ChildProcess = spawn(command, args, { cwd, env: { ...process.env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const client = new Client({ name: 'registry-test', version: '1' });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no "listening on" within 60 s')), 60_000);
      const look = () => {
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout!.on('data', look);
      child.stderr!.on('data', look);
      child.once('exit', (code) => reject(new Error(`exited ${code} before listening`)));
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return await greet(client);
  } catch (error) {
    throw new Error(`${command} ${args.join(' ')} over HTTP in ${cwd}: ${String(error)}\n--- output\n${output.slice(-3000)}`);
  } finally {
    await client.close().catch(() => undefined);
    await stopGroup(child);
  }
}

/** Ends a detached child's whole process group by its PID: SIGTERM, then SIGKILL after 5 s. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // the group is gone already
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

async function greet(client: Client): Promise<unknown> {
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  const answer = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
  const invalid = await client.callTool({ name: 'greet', arguments: { name: '' } });
  return { tools, answer: answer.content, invalid: invalid.isError };
}

const GREETED = { tools: ['greet'], answer: [{ type: 'text', text: 'Hello, Ada!' }], invalid: true };

describe('mcpkit from a registry, as a user installs it', () => {
  const root = mkdtempSync(join(tmpdir(), 'mcpkit-registry-consumers-'));
  let registry: Awaited<ReturnType<typeof registryModule.startRegistry>> | undefined;
  let packed: Packed[] = [];
  const installed = new Map<string, ShResult>();
  const npmEnv = (): NodeJS.ProcessEnv => ({
    ...process.env,
    LOG_LEVEL: 'warn',
    npm_config_registry: registry!.url,
    npm_config_userconfig: join(root, '.npmrc'),
  });

  beforeAll(async () => {
    registry = await registryModule.startRegistry();
    registry.npmrc(join(root, '.npmrc'));
  }, 120_000);

  afterAll(() => {
    registry?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('packs every publishable package with pnpm: exact sibling pins, no workspace: range, publint and arethetypeswrong clean', async () => {
    packed = await publish.packAndCheck(join(root, 'tarballs'));
    expect(packed.map((pkg) => pkg.name).sort()).toEqual(
      publish
        .publishablePackages()
        .map((pkg) => pkg.name)
        .sort(),
    );
    const core = packed.find((pkg) => pkg.name === '@mcpkit/core')!;
    const fastify = publish.readTarball(packed.find((pkg) => pkg.name === '@mcpkit/fastify')!.tarball);
    expect((fastify.manifest.dependencies as Record<string, string>)['@mcpkit/core']).toBe(core.version);
    // The check refuses what npm pack would have published.
    const versions = new Map(packed.map((pkg) => [pkg.name, pkg.version]));
    const npmPacked = { ...fastify, manifest: { ...fastify.manifest, dependencies: { '@mcpkit/core': 'workspace:*', '@mcpkit/http': '^0.1.0' } } };
    expect(publish.tarballProblems(npmPacked, versions)).toEqual([
      '@mcpkit/fastify: dependencies.@mcpkit/core is still "workspace:*"',
      `@mcpkit/fastify: dependencies.@mcpkit/http is "^0.1.0", not the exact sibling version ${versions.get('@mcpkit/http')}`,
    ]);
  }, 300_000);

  it('publishes them to the registry, then installs the README line and each module style in fresh folders outside the workspace', async () => {
    expect(packed.length).toBeGreaterThan(0);
    await publish.publishAll(packed, { registry: registry!.url, userconfig: join(root, '.npmrc') });
    const published = (await (await fetch(`${registry!.url}@mcpkit%2fcore`)).json()) as { 'dist-tags': { latest: string } };
    expect(published['dist-tags'].latest).toBe(packed.find((pkg) => pkg.name === '@mcpkit/core')!.version);

    // Two at a time: npm is network- and CPU-bound, and the machine has two cores.
    const pending = [...CONSUMERS];
    const worker = async () => {
      for (let consumer = pending.shift(); consumer; consumer = pending.shift()) {
        const dir = join(root, consumer.style);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `consumer-${consumer.style}`, version: '1.0.0', private: true, type: consumer.type }));
        writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...COMPILER, ...consumer.compilerOptions }, include: ['src'] }));
        for (const [file, text] of Object.entries(consumer.files)) {
          mkdirSync(join(dir, 'src'), { recursive: true });
          writeFileSync(join(dir, file), text);
        }
        const install = async () => {
          const runtime = await sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...consumer.install], dir, 400_000, npmEnv());
          if (runtime.code !== 0) return runtime;
          return sh('npm', ['install', '--save-dev', '--no-audit', '--no-fund', '--loglevel=error', ...TOOLCHAIN], dir, 400_000, npmEnv());
        };
        installed.set(consumer.style, await install());
      }
    };
    await Promise.all([worker(), worker()]);
    const failed = [...installed].filter(([, result]) => result.code !== 0).map(([style, result]) => explain(`npm install (${style})`, result));
    expect(failed).toEqual([]);
    for (const consumer of CONSUMERS) {
      // Installed from the registry, not linked to the workspace.
      const core = join(root, consumer.style, 'node_modules', '@mcpkit', 'core');
      expect(lstatSync(core).isSymbolicLink()).toBe(false);
      expect(realpathSync(core).startsWith(ROOT)).toBe(false);
    }
  }, 900_000);

  it('CommonJS (module: commonjs, what mcpkit new writes): tsc compiles the README example, mcpkit start serves it over stdio and HTTP', async () => {
    const dir = join(root, 'commonjs');
    expect(installed.get('commonjs')?.code).toBe(0);
    await succeed('tsc (commonjs)', 'npx', ['--no-install', 'tsc', '-p', '.'], dir);
    expect(readFileSync(join(dir, 'dist', 'app.js'), 'utf8')).toContain('require("@mcpkit/core")');
    expect(await greetOverStdio('npx', ['--no-install', 'mcpkit', 'start', 'dist/app.js'], dir)).toEqual(GREETED);
    expect(await greetOverHttp('npx', ['--no-install', 'mcpkit', 'start', 'dist/app.js', '--http', '--port', '0'], dir)).toEqual(GREETED);
    // The packages the README line brings (the CLI's own are hoisted beside it) load from CommonJS and from ESM.
    const loads = ['@mcpkit/core', '@mcpkit/cli', '@mcpkit/stdio', '@mcpkit/fastify', '@mcpkit/http', '@mcpkit/testing'];
    await succeed('require each package', process.execPath, ['-e', `for (const name of ${JSON.stringify(loads)}) require(name)`], dir);
    await succeed('import each package', process.execPath, ['--input-type=module', '-e', loads.map((name) => `import '${name}';`).join('\n')], dir);
    const cliVersion = (await succeed('mcpkit --version', 'npx', ['--no-install', 'mcpkit', '--version'], dir)).stdout.trim();
    expect(cliVersion).toBe(packed.find((pkg) => pkg.name === '@mcpkit/cli')!.version);
  }, 300_000);

  it.each(['nodenext', 'bundler'])(
    '%s: tsc type-checks (declarations too) and compiles the README example and an entry of its own, served over stdio and HTTP',
    async (style) => {
      const dir = join(root, style);
      expect(installed.get(style)?.code).toBe(0);
      await succeed(`tsc (${style})`, 'npx', ['--no-install', 'tsc', '-p', '.'], dir);
      expect(readFileSync(join(dir, 'dist', 'main.js'), 'utf8')).toContain("from '@mcpkit/stdio'");
      expect(await greetOverStdio(process.execPath, ['dist/main.js'], dir)).toEqual(GREETED);
      expect(await greetOverHttp(process.execPath, ['dist/main.js', '--http'], dir)).toEqual(GREETED);
    },
    300_000,
  );

  it('npx mcpkit new demo: the project depends on the registry (exact version), installs from it and passes its own tests', async () => {
    const consumer = join(root, 'commonjs');
    expect(installed.get('commonjs')?.code).toBe(0);
    const dir = join(root, 'demo');
    const created = await succeed('npx mcpkit new demo', 'npx', ['--no-install', 'mcpkit', 'new', 'demo', '--dir', dir, '--yes'], consumer, npmEnv(), 600_000);
    expect(created.stdout).toContain('created demo');
    const version = packed.find((pkg) => pkg.name === '@mcpkit/core')!.version;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; overrides?: unknown };
    expect({ core: pkg.dependencies['@mcpkit/core'], cli: pkg.dependencies['@mcpkit/cli'], overrides: pkg.overrides }).toEqual({
      core: version,
      cli: version,
      overrides: undefined,
    });
    expect(existsSync(join(dir, 'vendor'))).toBe(false);
    expect(realpathSync(join(dir, 'node_modules', '@mcpkit', 'core')).startsWith(dir)).toBe(true);
    await succeed('npm run build (demo)', 'npm', ['run', 'build'], dir, npmEnv());
    const tests = await succeed('npm test (demo)', 'npm', ['test'], dir, npmEnv());
    expect(tests.stderr).toContain('3 passed');
  }, 900_000);
});
