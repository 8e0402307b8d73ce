// The disk an install costs (`du -sk node_modules`): mcpkit's README servers installed with npm from
// a throwaway registry holding this checkout's packages (scripts/registry/), beside the official
// SDK's hello-world from the npm registry. `pnpm bench:install-size` prints the table;
// `--write` also puts it into docs/benchmarks.md, between its install-size markers.
'use strict';

const { execFileSync, spawn } = require('node:child_process');
const { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { startRegistry } = require('./registry');
const { packAndCheck, publishAll } = require('./publish');

const ROOT = join(__dirname, '..', '..');
const PEERS = ['reflect-metadata', 'class-validator', 'class-transformer'];

/** What each row installs (npm, through the throwaway registry, which proxies all but @mcpkit/*). */
const ROWS = [
  {
    label: 'mcpkit: the README example served with `serveStdio` (`@mcpkit/core`, `@mcpkit/stdio` and the peers)',
    install: ['@mcpkit/core', '@mcpkit/stdio', ...PEERS],
  },
  { label: 'mcpkit: the README install line (with `@mcpkit/cli`: `mcpkit start`, stdio and HTTP)', install: ['@mcpkit/core', '@mcpkit/cli', ...PEERS] },
  { label: 'official SDK hello-world (`@modelcontextprotocol/sdk` and `zod`, stdio)', install: ['@modelcontextprotocol/sdk', 'zod'] },
];

function run(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} in ${cwd} exited ${code}:\n${output.slice(-2000)}`)),
    );
  });
}

function megabytes(dir) {
  const kilobytes = Number(execFileSync('du', ['-sk', join(dir, 'node_modules')], { encoding: 'utf8' }).split('\t')[0]);
  return kilobytes / 1024;
}

async function measure() {
  const work = mkdtempSync(join(tmpdir(), 'mcpkit-install-size-'));
  const registry = await startRegistry();
  try {
    const packed = await packAndCheck(join(work, 'tarballs'), { lint: false });
    const userconfig = join(work, '.npmrc');
    registry.npmrc(userconfig);
    await publishAll(packed, { registry: registry.url, userconfig });
    const version = packed.find((pkg) => pkg.name === '@mcpkit/core').version;
    const rows = await Promise.all(
      ROWS.map(async (row, index) => {
        const dir = join(work, `row-${index}`);
        mkdirSync(dir);
        writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `install-size-${index}`, version: '1.0.0', private: true }));
        await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--userconfig', userconfig, ...row.install], dir);
        // npm's own record of what it put in node_modules: one key per installed package.
        const lock = JSON.parse(readFileSync(join(dir, 'node_modules', '.package-lock.json'), 'utf8'));
        return { ...row, megabytes: megabytes(dir), packages: Object.keys(lock.packages).length };
      }),
    );
    return { version, node: process.version, rows };
  } finally {
    registry.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

function table({ version, node, rows }) {
  return [
    `Measured by \`pnpm bench:install-size\` (mcpkit ${version}, npm ${execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim()}, Node ${node}, ${new Date().toISOString().slice(0, 10)}):`,
    '',
    '| install | `du -sk node_modules` | packages |',
    '|---|---:|---:|',
    ...rows.map((row) => `| ${row.label} | ${row.megabytes.toFixed(1)} MB | ${row.packages} |`),
  ].join('\n');
}

async function main() {
  const text = table(await measure());
  console.log(text);
  if (process.argv.includes('--write')) {
    const page = join(ROOT, 'docs', 'benchmarks.md');
    const markdown = readFileSync(page, 'utf8');
    const begin = '<!-- install-size:begin -->';
    const end = '<!-- install-size:end -->';
    if (!markdown.includes(begin) || !markdown.includes(end)) throw new Error(`${page} lacks the ${begin} / ${end} markers`);
    writeFileSync(page, `${markdown.slice(0, markdown.indexOf(begin) + begin.length)}\n${text}\n${markdown.slice(markdown.indexOf(end))}`);
  }
}

main().catch((error) => {
  console.error(error.message);
  process.exitCode = 1;
});
