#!/usr/bin/env node
// `pnpm typecheck`: the type check jest no longer does (ts-jest transpiles file by file), over
// every source and spec, once: one tsc program over the workspace folders (packages/*, apps/*,
// docs), with tsconfig.jest.json's settings (paths onto the sources, as jest resolves them). One
// program checks each shared source (core's above all) once; seventeen programs, one per folder,
// checked core seventeen times (197 s of CPU in CI, against about 60).
// `node scripts/typecheck.js [folder…]` checks only those folders. Exit 1 on any error.
'use strict';

const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const OUT = join(ROOT, '.cache', 'typecheck');
const TSC = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
// Inputs whose errors are the point: the generated client's misuse file fails by design, and its
// spec checks exactly which errors it gives. docs/examples compile in docs' own build. The notes
// board's browser code (its test host page) needs the DOM: apps/notes/view/tsconfig.json checks it
// in the notes build.
// @mcpkit/client's server fixtures are plain JavaScript children: its official-SDK server
// (McpServer with zod) cost tsc three minutes of inference for nothing it checks.
const EXCLUDE = ['apps/notes/test/types/*.misuse.ts', 'docs/examples', 'apps/notes/test/browser', 'packages/client/test/fixtures'];
// apps/bench's servers import the official SDKs (zod 3 and 4 side by side), whose types need the
// bench's own module resolution: under node10 resolution tsc ran out of a 4 GB heap on them. The
// bench build (`pnpm build`) type-checks those sources; here only its specs (and what they import).
const PARTS = { 'apps/bench': ['test'] };

const folders =
  process.argv.length > 2
    ? process.argv.slice(2)
    : [
        ...['packages', 'apps'].flatMap((base) =>
          readdirSync(join(ROOT, base))
            .filter((name) => existsSync(join(ROOT, base, name, 'package.json')))
            .map((name) => `${base}/${name}`),
        ),
        'docs',
      ];

/**
 * tsconfig.jest.json's paths, plus the apps' built files that other apps import
 * (`@mcpkit/app-notes/dist/auth`): onto their sources, as for the packages, so that the check
 * needs no build (CI runs it beside the first one).
 */
function pathsOntoSources() {
  const ts = require(require.resolve('typescript', { paths: [ROOT] }));
  const base = ts.readConfigFile(join(ROOT, 'tsconfig.jest.json'), ts.sys.readFile).config.compilerOptions.paths;
  const paths = Object.fromEntries(Object.entries(base).map(([pattern, targets]) => [pattern, targets.map((target) => join(ROOT, target))]));
  for (const folder of readdirSync(join(ROOT, 'apps'))) {
    const manifest = join(ROOT, 'apps', folder, 'package.json');
    if (existsSync(manifest)) paths[`${JSON.parse(readFileSync(manifest, 'utf8')).name}/dist/*`] = [join(ROOT, 'apps', folder, 'src', '*')];
  }
  return paths;
}

mkdirSync(OUT, { recursive: true });
const started = Date.now();
const include = folders
  .flatMap((folder) => (PARTS[folder] ?? ['src', 'test']).map((part) => `${folder}/${part}`))
  .filter((path) => existsSync(join(ROOT, path)));
// One file per run: two runs at once (a helper's and CI's) must not share it.
const config = join(OUT, `workspace-${process.pid}.json`);
writeFileSync(
  config,
  JSON.stringify({
    extends: join(ROOT, 'tsconfig.jest.json'),
    compilerOptions: { noEmit: true, incremental: false, paths: pathsOntoSources() },
    include: ['packages/core/src/types/*.d.ts', ...include].map((path) => join(ROOT, path)),
    exclude: EXCLUDE.map((path) => join(ROOT, path)),
  }),
);
// A 4 GB heap: the one program holds every folder (about 1 GB today).
const run = spawnSync(process.execPath, ['--max-old-space-size=4096', TSC, '-p', config], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
rmSync(config, { force: true });
const seconds = ((Date.now() - started) / 1000).toFixed(0);
if (run.status === 0) console.log(`type check: ${folders.join(', ')}: clean (${seconds} s)`);
else console.log(`${run.stdout}${run.stderr}\ntype check: errors in ${folders.join(', ')} (${seconds} s)`);
process.exitCode = run.status === 0 ? 0 : 1;
