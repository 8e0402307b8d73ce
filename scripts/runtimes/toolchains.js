'use strict';
// The runtime matrix's decorator rows (docs/runtimes.md): the fixture's TypeScript source run as
// is by Bun, tsx and Deno, launched from the app's folder and from another one (as an MCP client
// launches a server: its own working directory, an absolute path to the entry). A runner that
// finds the tsconfig serves; one that does not must stop with an error naming the cause and the fix.

const { spawn } = require('node:child_process');
const { join } = require('node:path');
const { checkStdio } = require('./check-http');

const TIMEOUT_MS = 30_000;

/** Runs a server that should not start; resolves to its exit code and stderr. */
function failedStart(command, args, cwd, env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-20_000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.once('error', (error) => {
      stderr += String(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal, stderr });
    });
    child.stdin.end();
  });
}

/** Every toolchain row; prints a line per check and resolves to `{ passed, failed }`. */
async function checkToolchains({ bins, fixture, elsewhere, denoDir }) {
  const source = join(fixture, 'src', 'main.ts');
  const tsx = join(fixture, 'node_modules', '.bin', 'tsx');
  const env = { ...process.env, LOG_LEVEL: 'warn', DENO_DIR: denoDir };
  let passed = 0;
  let failed = 0;
  const rows = [];
  const report = (name, why) => {
    if (why === null) passed += 1;
    else failed += 1;
    rows.push(`| ${name} | ${why === null ? '✓' : '✗'} |`);
    console.log(why === null ? `  ok   ${name}` : `  FAIL ${name}: ${why}`);
  };
  const serves = async (name, command, args, cwd) => {
    const lines = [];
    const totals = await checkStdio(command, args, { cell: name, cwd, env, log: (line) => lines.push(line) });
    report(name, totals.failed === 0 ? null : lines.filter((line) => line.includes('FAIL')).join('; '));
  };
  const explains = async (name, command, args, cwd, expected) => {
    const { code, stderr } = await failedStart(command, args, cwd, env);
    const missing = expected.filter((text) => !stderr.includes(text));
    report(name, code !== 0 && missing.length === 0 ? null : `exit ${code}, stderr lacks ${JSON.stringify(missing)}: ${stderr.trim().slice(-300)}`);
  };
  // The note on a crash inside class-validator, and the start-up error of a compiler without design types.
  const standard = ['standard (TC39) decorators', '"experimentalDecorators": true', 'may not find that tsconfig'];
  const noMetadata = ['MCPKIT_ERR_MISSING_DESIGN_METADATA', 'tsx and esbuild drop this metadata', '@Tool({ input: MyInput })'];

  console.log('decorator toolchains (the TypeScript source run as is):');
  await serves('Bun, src/main.ts from the app folder (tsconfig found)', bins.bun, [source, 'stdio'], fixture);
  await explains('Bun, src/main.ts from another folder (no tsconfig: standard decorators)', bins.bun, [source, 'stdio'], elsewhere, standard);
  await serves('Bun --tsconfig-override, from another folder', bins.bun, [`--tsconfig-override=${join(fixture, 'tsconfig.json')}`, source, 'stdio'], elsewhere);
  await explains('tsx, src/main.ts from the app folder (no design types)', tsx, [source, 'stdio'], fixture, noMetadata);
  await explains('tsx, src/main.ts from another folder (no tsconfig: standard decorators)', tsx, [source, 'stdio'], elsewhere, standard);
  // Deno looks for its configuration (deno.json, or a tsconfig.json) beside the module, whatever the working directory.
  await serves(
    'Deno, deno/stdio.ts from another folder (tsconfig found beside the module)',
    bins.deno,
    ['run', '--allow-all', join(fixture, 'deno', 'stdio.ts')],
    elsewhere,
  );
  return { passed, failed, table: ['| decorator toolchain (TypeScript run as is) | as expected |', '|---|---|', ...rows].join('\n') };
}

module.exports = { checkToolchains };
