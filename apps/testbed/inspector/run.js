#!/usr/bin/env node
// `pnpm inspector`: the official MCP Inspector CLI (pinned) lists and calls apps/testbed over
// stdio and Streamable HTTP, pinned to the 2026-07-28 era (plus one legacy and one auto call for
// contrast). Installs the Inspector and Node 22 into .cache on first use (`--install`: only that,
// so CI can download them while it runs other checks). MCP_CATALOG_PATH and
// MCP_STORAGE_DIR keep it from writing into the home folder; a scratch HOME proves it wrote nothing.
'use strict';

const { spawnSync } = require('node:child_process');
const { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { CACHE, ensureNode22, ensurePackage } = require('../../../scripts/npm-cache');
const { startHttpServer } = require('../../../scripts/http-server');

const INSPECTOR = { name: '@modelcontextprotocol/inspector', version: '2.12.0' };
const TESTBED = join(__dirname, '..', 'dist', 'main.js');
const TOOLS = ['echo', 'add', 'validate', 'fail', 'slow', 'shapes', 'limited'];

const results = { passed: 0, failed: 0, checks: [] };

function check(name, ok, detail) {
  results[ok ? 'passed' : 'failed'] += 1;
  results.checks.push({ name, ok });
  process.stdout.write(`${ok ? 'ok' : 'FAILED'}: ${name}${ok || !detail ? '' : `\n  ${detail.slice(0, 2000).replace(/\n/g, '\n  ')}`}\n`);
}

function parse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function main() {
  const node = ensureNode22();
  const launcher = join(ensurePackage(join(CACHE, 'inspector'), INSPECTOR.name, INSPECTOR.version), 'clients', 'launcher', 'build', 'index.js');
  const home = mkdtempSync(join(tmpdir(), 'mcpkit-inspector-home-'));
  // MCP_CATALOG_PATH alone is not enough: against a URL the Inspector also creates its OAuth
  // storage folder under HOME unless MCP_STORAGE_DIR points elsewhere.
  const env = {
    ...process.env,
    HOME: home,
    MCP_CATALOG_PATH: join(CACHE, 'inspector', 'catalog.json'),
    MCP_STORAGE_DIR: join(CACHE, 'inspector', 'storage'),
    LOG_LEVEL: 'warn',
  };

  /** One Inspector CLI run; `target` is the server command or URL. */
  function inspect(target, era, ...args) {
    const run = spawnSync(node, [launcher, '--cli', '--protocol-era', era, '--format', 'json', '-q', ...target, ...args], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { status: run.status, out: parse(run.stdout), raw: `exit ${run.status}\nstdout: ${run.stdout}\nstderr: ${run.stderr}` };
  }

  /** The same list of checks against either transport. */
  function suite(label, target) {
    const listed = inspect(target, 'modern', '--method', 'tools/list');
    check(
      `${label}: tools/list (2026-07-28) lists the testbed tools`,
      listed.status === 0 && JSON.stringify(listed.out?.result?.tools?.map((tool) => tool.name)) === JSON.stringify(TOOLS),
      listed.raw,
    );

    const added = inspect(target, 'modern', '--method', 'tools/call', '--tool-name', 'add', '--tool-args-json', '{"a":2,"b":5}');
    const addResult = added.out?.result;
    check(
      `${label}: tools/call add answers 7 with the 2026-07-28 serverInfo in _meta`,
      added.status === 0 && addResult?.content?.[0]?.text === '7' && addResult?._meta?.['io.modelcontextprotocol/serverInfo']?.name === 'mcpkit-testbed',
      added.raw,
    );

    const echoed = inspect(target, 'modern', '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'text=über ✓');
    check(`${label}: tools/call echo returns its text byte for byte`, echoed.status === 0 && echoed.out?.result?.content?.[0]?.text === 'über ✓', echoed.raw);

    const invalid = inspect(target, 'modern', '--method', 'tools/call', '--tool-name', 'validate', '--tool-args-json', '{"name":"Ada","age":200}');
    const invalidText = invalid.out?.result?.content?.[0]?.text ?? '';
    check(
      `${label}: invalid validate input is an isError result naming the fields`,
      invalid.status !== 0 && invalid.out?.result?.isError === true && /age/.test(invalidText) && /email/.test(invalidText),
      invalid.raw,
    );

    const read = inspect(target, 'modern', '--method', 'resources/read', '--uri', 'test://static');
    check(
      `${label}: resources/read test://static with cache hints`,
      read.status === 0 && read.out?.result?.contents?.[0]?.text === 'static resource content' && read.out?.result?.cacheScope === 'private',
      read.raw,
    );

    const missing = inspect(target, 'modern', '--method', 'resources/read', '--uri', 'test://missing');
    check(`${label}: resources/read of an unknown URI fails clearly`, missing.status !== 0 && /not found/i.test(missing.raw), missing.raw);

    const prompt = inspect(target, 'modern', '--method', 'prompts/get', '--prompt-name', 'greet', '--prompt-args', 'name=Ada');
    check(
      `${label}: prompts/get greet includes the name`,
      prompt.status === 0 && /Ada/.test(prompt.out?.result?.messages?.[0]?.content?.text ?? ''),
      prompt.raw,
    );

    const auto = inspect(target, 'auto', '--method', 'tools/call', '--tool-name', 'add', '--tool-args-json', '{"a":1,"b":1}');
    check(
      `${label}: --protocol-era auto picks 2026-07-28`,
      auto.status === 0 && auto.out?.result?._meta?.['io.modelcontextprotocol/serverInfo'] !== undefined,
      auto.raw,
    );

    const legacy = inspect(target, 'legacy', '--method', 'tools/call', '--tool-name', 'add', '--tool-args-json', '{"a":1,"b":2}');
    check(
      `${label}: --protocol-era legacy (initialize) still works on the same server`,
      legacy.status === 0 && legacy.out?.result?.content?.[0]?.text === '3' && legacy.out?.result?._meta === undefined,
      legacy.raw,
    );
  }

  try {
    suite('stdio', [process.execPath, TESTBED, 'stdio']);
    const { child, url } = await startHttpServer(TESTBED, ['http'], { LOG_LEVEL: 'info' });
    try {
      suite('http', [url]);
    } finally {
      child.kill('SIGTERM');
    }
    check('the Inspector wrote nothing into the home folder', readdirSync(home).length === 0, `HOME holds: ${readdirSync(home).join(', ')}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }

  mkdirSync(join(CACHE, 'inspector'), { recursive: true });
  writeFileSync(join(CACHE, 'inspector', 'summary.json'), JSON.stringify(results, null, 2));
  process.stdout.write(`\ninspector: ${results.passed} passed, ${results.failed} failed\n`);
  process.exitCode = results.failed === 0 ? 0 : 1;
}

if (process.argv.includes('--install')) {
  ensureNode22();
  ensurePackage(join(CACHE, 'inspector'), INSPECTOR.name, INSPECTOR.version);
} else {
  main().catch((error) => {
    process.stderr.write(`inspector run failed: ${error.stack ?? error}\n`);
    process.exitCode = 1;
  });
}
