import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { RawStdioClient } from '@mcpkit/testing';
import { sh, type ShResult } from './sh';

// mcpkit as a user gets it: every publishable package packed with pnpm, checked (manifests,
// publint, arethetypeswrong) and published to a real registry (Verdaccio on a loopback port,
// scripts/registry/), then installed with npm into folders outside the workspace: the README's
// install line and example, compiled with tsc for each module style (CommonJS, ESM with nodenext,
// bundler resolution), served over stdio and HTTP to the official SDK client; and `npx @mcpkit/cli new`
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

/** A folder outside the workspace with its own `npm install` from the registry. */
interface Install {
  folder: 'commonjs' | 'esm';
  type: 'commonjs' | 'module';
  packages: string[];
}

const ESM_PACKAGES = [...README_INSTALL.filter((name) => name !== '@mcpkit/cli'), '@mcpkit/stdio', '@mcpkit/fastify'];
const INSTALLS: Install[] = [
  { folder: 'commonjs', type: 'commonjs', packages: README_INSTALL },
  // nodenext and bundler install the same packages: one folder, one install, a tsconfig each.
  { folder: 'esm', type: 'module', packages: ESM_PACKAGES },
];

/** A module style: compiled with its own tsconfig in its install's folder. */
interface Style {
  style: 'commonjs' | 'nodenext' | 'bundler';
  folder: Install['folder'];
  compilerOptions: Record<string, unknown>;
}

const STYLES: Style[] = [
  // What `mcpkit new` writes; node10 resolution ignores `exports`: the subpaths need typesVersions.
  { style: 'commonjs', folder: 'commonjs', compilerOptions: { module: 'commonjs', moduleResolution: 'node10' } },
  { style: 'nodenext', folder: 'esm', compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' } },
  { style: 'bundler', folder: 'esm', compilerOptions: { module: 'esnext', moduleResolution: 'bundler' } },
];
const SOURCES: Record<Install['folder'], Record<string, string>> = {
  commonjs: { 'src/app.ts': EXAMPLE, 'src/subpaths.ts': SUBPATHS },
  esm: { 'src/app.ts': EXAMPLE, 'src/main.ts': MAIN, 'src/subpaths.ts': SUBPATHS },
};

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

/** Resolves once `check` holds, polling every 200 ms; rejects with `what` after `limitMs` (a bound on the wait, not a timing assertion). */
async function until(what: string, check: () => boolean, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${limitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('mcpkit from a registry, as a user installs it', () => {
  const root = mkdtempSync(join(tmpdir(), 'mcpkit-registry-consumers-'));
  let registry: Awaited<ReturnType<typeof registryModule.startRegistry>> | undefined;
  let packed: Packed[] = [];
  const installed = new Map<Install['folder'], ShResult>();
  // The scaffolded project's whole life (`mcpkit new` to `mcpkit dev`) starts as soon as the
  // CommonJS folder (whose CLI scaffolds it) is installed, beside the ESM install and the module
  // styles' checks: its last test awaits it. It resolves with what went wrong, or undefined.
  let demo: Promise<Error | undefined> = Promise.resolve(new Error('the packages were not published'));
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

  afterAll(async () => {
    await demo; // never rejects; a failed test may leave it running
    registry?.stop();
    rmSync(root, { recursive: true, force: true });
  }, 900_000);

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

    // Both folders at once: npm is network- and CPU-bound, and the machine has two cores.
    const install = async ({ folder, type, packages }: Install): Promise<void> => {
      const dir = join(root, folder);
      mkdirSync(join(dir, 'src'), { recursive: true });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `consumer-${folder}`, version: '1.0.0', private: true, type }));
      for (const [file, text] of Object.entries(SOURCES[folder])) writeFileSync(join(dir, file), text);
      let result = await sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...packages], dir, 400_000, npmEnv());
      if (result.code === 0)
        result = await sh('npm', ['install', '--save-dev', '--no-audit', '--no-fund', '--loglevel=error', ...TOOLCHAIN], dir, 400_000, npmEnv());
      installed.set(folder, result);
    };
    const commonjs = install(INSTALLS[0]);
    demo = commonjs.then(() =>
      scaffoldedProject().then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      ),
    );
    await Promise.all([commonjs, install(INSTALLS[1])]);
    const failed = [...installed].filter(([, result]) => result.code !== 0).map(([folder, result]) => explain(`npm install (${folder})`, result));
    expect(failed).toEqual([]);
    for (const { folder } of INSTALLS) {
      // Installed from the registry, not linked to the workspace.
      const core = join(root, folder, 'node_modules', '@mcpkit', 'core');
      expect(lstatSync(core).isSymbolicLink()).toBe(false);
      expect(realpathSync(core).startsWith(ROOT)).toBe(false);
    }
  }, 900_000);

  /** Writes the style's tsconfig (declarations of every installed package checked: skipLibCheck off) and compiles with it. */
  async function compile({ style, folder, compilerOptions }: Style): Promise<{ dir: string; outDir: string }> {
    const dir = join(root, folder);
    expect(installed.get(folder)?.code).toBe(0);
    const outDir = `dist-${style}`;
    writeFileSync(join(dir, `tsconfig.${style}.json`), JSON.stringify({ compilerOptions: { ...COMPILER, ...compilerOptions, outDir }, include: ['src'] }));
    await succeed(`tsc (${style})`, 'npx', ['--no-install', 'tsc', '-p', `tsconfig.${style}.json`], dir);
    return { dir, outDir };
  }

  it('CommonJS (module: commonjs, what mcpkit new writes): tsc compiles the README example, mcpkit start serves it over stdio and HTTP', async () => {
    const { dir, outDir } = await compile(STYLES[0]);
    expect(readFileSync(join(dir, outDir, 'app.js'), 'utf8')).toContain('require("@mcpkit/core")');
    expect(await greetOverStdio('npx', ['--no-install', 'mcpkit', 'start', `${outDir}/app.js`], dir)).toEqual(GREETED);
    expect(await greetOverHttp('npx', ['--no-install', 'mcpkit', 'start', `${outDir}/app.js`, '--http', '--port', '0'], dir)).toEqual(GREETED);
    // The packages the README line brings (the CLI's own are hoisted beside it) load from CommonJS and from ESM.
    const loads = ['@mcpkit/core', '@mcpkit/cli', '@mcpkit/stdio', '@mcpkit/fastify', '@mcpkit/http', '@mcpkit/testing'];
    await succeed('require each package', process.execPath, ['-e', `for (const name of ${JSON.stringify(loads)}) require(name)`], dir);
    await succeed('import each package', process.execPath, ['--input-type=module', '-e', loads.map((name) => `import '${name}';`).join('\n')], dir);
    const cliVersion = (await succeed('mcpkit --version', 'npx', ['--no-install', 'mcpkit', '--version'], dir)).stdout.trim();
    expect(cliVersion).toBe(packed.find((pkg) => pkg.name === '@mcpkit/cli')!.version);
  }, 300_000);

  it.each([STYLES[1], STYLES[2]])(
    '$style: tsc type-checks (declarations too) and compiles the README example and an entry of its own, served over stdio and HTTP',
    async (style) => {
      const { dir, outDir } = await compile(style);
      expect(readFileSync(join(dir, outDir, 'main.js'), 'utf8')).toContain("from '@mcpkit/stdio'");
      expect(await greetOverStdio(process.execPath, [`${outDir}/main.js`], dir)).toEqual(GREETED);
      expect(await greetOverHttp(process.execPath, [`${outDir}/main.js`, '--http'], dir)).toEqual(GREETED);
    },
    300_000,
  );

  /**
   * `npx @mcpkit/cli new demo` from the CommonJS folder, as the docs spell it (a bare `mcpkit` is
   * another registry package outside a project that installed the CLI; --no-install: the consumer's
   * own copy, no second download), as a user runs it: the project installs from
   * the registry, builds, passes its own tests, is inspected, serves over stdio, and `mcpkit dev`
   * keeps a client connected across an edit.
   */
  async function scaffoldedProject(): Promise<void> {
    const consumer = join(root, 'commonjs');
    if (installed.get('commonjs')?.code !== 0) throw new Error('the CommonJS folder did not install');
    const dir = join(root, 'demo');
    const created = await succeed(
      'npx @mcpkit/cli new demo',
      'npx',
      ['--no-install', '@mcpkit/cli', 'new', 'demo', '--dir', dir, '--yes'],
      consumer,
      npmEnv(),
      600_000,
    );
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
    // As a user runs it, with no LOG_LEVEL: the test client keeps the app's request lines out.
    const { LOG_LEVEL: _level, ...userEnv } = npmEnv();
    const tests = await succeed('npm test (demo)', 'npm', ['test'], dir, userEnv);
    expect(tests.stderr).toContain('3 passed');
    expect(tests.stderr).not.toMatch(/"level":30/);

    const inspected = await succeed('mcpkit inspect --json (demo)', 'npx', ['--no-install', 'mcpkit', 'inspect', '--json'], dir);
    expect((JSON.parse(inspected.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual(['greet']);
    const server = RawStdioClient.spawn('npm', ['start', '--silent', '--', '--stdio'], { ...process.env, LOG_LEVEL: 'warn' }, dir);
    try {
      await server.initialize();
      const list = await server.request('tools/list');
      expect((list.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual(['greet']);
      expect(server.stray).toEqual([]);
    } finally {
      server.kill();
    }

    // mcpkit dev: the client stays connected while a source edit rebuilds and restarts the server.
    const client = new Client({ name: 'dev-client', version: '1' });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    await client.connect(
      new StdioClientTransport({
        command: 'npx',
        args: ['--no-install', 'mcpkit', 'dev'],
        cwd: dir,
        env: { ...process.env, LOG_LEVEL: 'warn' } as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['greet']);
      // Let tsc --watch finish its first pass before the edit (slow on 2 cores).
      await new Promise((resolve) => setTimeout(resolve, 8_000));
      const source = join(dir, 'src', 'app.ts');
      const before = changes;
      writeFileSync(
        source,
        readFileSync(source, 'utf8').replace("@Tool({ description: 'Greets someone by name'", "@Tool({ name: 'welcome', description: 'Greets someone by name'"),
      );
      await until('a tools/list_changed after the edit', () => changes > before, 90_000);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['welcome']);
      expect(await client.callTool({ name: 'welcome', arguments: { name: 'Lin' } })).toEqual({ content: [{ type: 'text', text: 'Hello, Lin!' }] });
    } finally {
      await client.close();
    }
  }

  it('npx @mcpkit/cli new demo (what the docs say): the project depends on the registry (exact version), installs from it, builds, passes its own tests, is inspected, serves, and mcpkit dev restarts it on an edit', async () => {
    const failure = await demo;
    if (failure) throw failure;
  }, 900_000);
});
