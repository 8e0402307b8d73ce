'use strict';
// docs/runtimes-workers.md and docs/validation.md followed as a newcomer would, outside the
// repository: the workspace packages packed into tarballs and installed with npm in a temporary
// folder, the pages' own code blocks written as files (the app, src/worker.ts, worker.mjs,
// bundle.mjs, the declaration), then the pages' commands: tsc, mcpkit build-validators,
// node bundle.mjs, and the bundle served by workerd (what `wrangler dev` runs). A valid and an
// invalid tools/call must be answered as the pages say. Needs the build (pnpm build) and the npm
// registry (typescript, esbuild, class-validator, workerd).
//
//   node scripts/runtimes/workers-recipe.js        exit 0/1, ends with "N passed, M failed"

const { execFileSync, spawn } = require('node:child_process');
const { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync, existsSync } = require('node:fs');
const { freePort } = require('../free-port');
const { modernHttp } = require('./check-http');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const WORKERD_VERSION = '1.20261117.1';
const PACKAGES = ['core', 'http', 'cli', 'fastify', 'openapi', 'stdio', 'testing'];
let passed = 0;
let failed = 0;
function step(name, ok, detail = '') {
  if (ok) passed += 1;
  else failed += 1;
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} workers recipe ${name}${detail === '' ? '' : `: ${detail}`}`);
  return ok;
}

const blocks = (page, lang) =>
  [...readFileSync(join(ROOT, 'docs', page), 'utf8').matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);
const block = (page, lang, test) => {
  const found = blocks(page, lang).find(test);
  if (found === undefined) throw new Error(`no such code block in docs/${page}`);
  return found;
};

/**
 * The packages of the page's `npm install` lines, as written, but for two: `@mcpkit/*` come from
 * the packed tarballs (all of them, so npm finds the exact siblings each pins), and `wrangler` is
 * left out (workerd, what `wrangler dev` runs, serves the bundle here). A name the page leaves
 * out (esbuild, the fetch binding) fails the steps that need it, as it would for a reader.
 */
function installedByThePage() {
  const words = blocks('runtimes-workers.md', 'sh')
    .flatMap((text) => text.split('\n'))
    .filter((line) => line.startsWith('npm install '))
    .flatMap((line) => line.slice('npm install '.length).split(/\s+/))
    .filter((word) => word !== '' && !word.startsWith('-'));
  if (words.length === 0) throw new Error('docs/runtimes-workers.md has no npm install line');
  const unpacked = words.filter((name) => name.startsWith('@mcpkit/') && !PACKAGES.includes(name.slice('@mcpkit/'.length)));
  if (unpacked.length > 0) throw new Error(`docs/runtimes-workers.md installs ${unpacked.join(', ')}, which this script does not pack`);
  return words.filter((name) => !name.startsWith('@mcpkit/') && name !== 'wrangler');
}

function writeProject(dir) {
  mkdirSync(join(dir, 'src'), { recursive: true });
  // The app of docs/validation.md, as src/app.ts; the Worker of docs/runtimes-workers.md, as src/worker.ts.
  writeFileSync(
    join(dir, 'src', 'app.ts'),
    block('validation.md', 'ts', (b) => b.includes('export function createInvitesApp')),
  );
  const worker = block('runtimes-workers.md', 'ts', (b) => b.includes('createFetchHandler'));
  writeFileSync(join(dir, 'src', 'worker.ts'), worker.replace("'./precompiled-validators.example'", "'./app'"));
  writeFileSync(
    join(dir, 'worker.mjs'),
    block('runtimes-workers.md', 'js', (b) => b.startsWith('// worker.mjs')),
  );
  writeFileSync(
    join(dir, 'bundle.mjs'),
    block('runtimes-workers.md', 'js', (b) => b.startsWith('// bundle.mjs')),
  );
  // What `mcpkit new` writes, with the DOM's Request for src/worker.ts.
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'commonjs',
      lib: ['ES2022', 'DOM'],
      types: [],
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      useDefineForClassFields: false,
      strictPropertyInitialization: false,
      rootDir: 'src',
      outDir: 'dist',
    },
    include: ['src'],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  writeFileSync(join(dir, 'package.json'), '{ "name": "invites", "private": true }\n');
}

function sh(dir, command, args) {
  return execFileSync(command, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_LEVEL: 'warn' } });
}

/** The recipe's `invite` tool called on 2026-07-28; resolves with the answer's JSON-RPC messages as text. */
async function call(url, id, args) {
  const answer = await modernHttp(url, 'workers-recipe')({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'invite', arguments: args } });
  return JSON.stringify(answer.messages);
}

async function serve(dir) {
  const port = await freePort();
  const config = [
    'using Workerd = import "/workerd/workerd.capnp";',
    'const config :Workerd.Config = (',
    '  services = [ (name = "main", worker = .main) ],',
    `  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],`,
    ');',
    'const main :Workerd.Worker = (',
    '  modules = [ (name = "worker.js", esModule = embed "build/worker.js") ],',
    '  compatibilityDate = "2025-09-15",',
    '  compatibilityFlags = ["nodejs_compat"],',
    ');',
    '',
  ].join('\n');
  writeFileSync(join(dir, 'config.capnp'), config);
  let output = '';
  const child = spawn(join(dir, 'node_modules', '.bin', 'workerd'), ['serve', 'config.capnp'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk) => (output = (output + chunk).slice(-10_000)));
  child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-10_000)));
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let attempt = 0; attempt < 200 && child.exitCode === null; attempt++) {
    try {
      await fetch(url, { method: 'GET', signal: AbortSignal.timeout(1_000) });
      return { url, child, log: () => output };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`workerd did not listen: ${output.slice(-1500)}`);
}

async function main() {
  const started = Date.now();
  if (!existsSync(join(ROOT, 'packages', 'core', 'dist', 'index.js'))) throw new Error('build first: pnpm build');
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-workers-recipe-'));
  try {
    const tarballs = join(dir, 'tarballs');
    for (const name of PACKAGES) sh(ROOT, 'npx', ['-y', 'pnpm@10.34.9', '--filter', `@mcpkit/${name}`, 'pack', '--pack-destination', tarballs]);
    writeProject(dir);
    const packed = PACKAGES.map((name) => join(tarballs, `mcpkit-${name}-${require(join(ROOT, 'packages', name, 'package.json')).version}.tgz`));
    const named = installedByThePage();
    sh(dir, 'npm', ['install', '--no-audit', '--no-fund', ...packed, ...named, `workerd@${WORKERD_VERSION}`]);
    step('installed what the page says (@mcpkit/* from packed tarballs), outside the workspace', true, `${named.join(' ')}; ${dir}`);
    // The pages' commands, as written.
    sh(dir, 'npx', ['tsc']);
    step('npx tsc', existsSync(join(dir, 'dist', 'app.js')) && existsSync(join(dir, 'dist', 'worker.js')));
    const generated = sh(dir, 'npx', ['mcpkit', 'build-validators', 'dist/app.js', '--export', 'createInvitesApp', '--out', 'dist/validators.generated.js']);
    step('npx mcpkit build-validators', existsSync(join(dir, 'dist', 'validators.generated.js')), generated.trim());
    sh(dir, 'node', ['bundle.mjs']);
    step('node bundle.mjs', existsSync(join(dir, 'build', 'worker.js')));
    const server = await serve(dir);
    try {
      const good = await call(server.url, 1, { name: 'Ada', email: 'ada@example.com' });
      step('a valid call is answered', good.includes('Invited Ada <ada@example.com>'), good.slice(0, 200));
      const bad = await call(server.url, 2, { name: '', email: 'x' });
      step(
        'an invalid call is an isError result naming each field',
        bad.includes('"isError":true') && bad.includes('email: must be a valid email'),
        bad.slice(0, 200),
      );
      step('nothing uncaught in the Worker', !/Uncaught|EvalError|does not export/.test(server.log()), server.log().slice(-300));
    } finally {
      server.child.kill('SIGTERM');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`workers recipe: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main()
  .catch((error) => step('run', false, (error.stderr ?? '') + (error.stack ?? String(error))))
  .finally(() => {
    console.log(`${passed} passed, ${failed} failed`);
    process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
  });
