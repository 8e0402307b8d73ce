// Bundles @mcpkit/core's compiled JavaScript (dist/, from tsc) into one file, run by the package's
// build after tsc. A server loads ~90 of core's modules at start-up, each costing Node a path
// resolution, a stat and a compile-cache lookup (~0.25 ms): one file takes ~20 ms off a stdio
// server's cold start on Node 24 (docs/stdio.md, "Start-up time").
//
//   dist/bundle/core.js       both entry points' modules, once (so `instanceof` holds across them)
//   dist/bundle/index.js      `@mcpkit/core`            → require('./core.js').index
//   dist/bundle/transport.js  `@mcpkit/core/transport`  → require('./core.js').transport
//   dist/bundle/compile-cache.js  `@mcpkit/core/compile-cache`, alone: it runs before anything
//                             heavy loads, so it must not pull the rest of core in
//
// Packages stay external (class-validator, pino …: an app shares them). The start-up hook that
// both bundles carry installs once (a global symbol guards it). Types are tsc's, per file, as
// before. esbuild is a build-time tool only (devDependency).
'use strict';

const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { buildSync } = require('esbuild');

const dist = join(__dirname, '..', 'dist');
const out = join(dist, 'bundle');
mkdirSync(out, { recursive: true });

// Packages stay external; tsc's source maps of dist/*.js are read, so stack traces map to
// src/*.ts (--enable-source-maps).
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
};

buildSync({
  ...common,
  stdin: {
    contents: "exports.index = require('./index.js');\nexports.transport = require('./transport.js');\n",
    resolveDir: dist,
    sourcefile: 'entries.js',
    loader: 'js',
  },
  outfile: join(out, 'core.js'),
});

buildSync({ ...common, entryPoints: [join(dist, 'compile-cache.js')], outfile: join(out, 'compile-cache.js') });

// The names, spelled out in the form Node's cjs-module-lexer reads, so that `import { createApp }
// from '@mcpkit/core'` works in an ES module app as it did with tsc's per-file output.
const bundle = require(join(out, 'core.js'));
for (const entry of ['index', 'transport']) {
  const names = Object.keys(bundle[entry]).filter((name) => name !== '__esModule');
  writeFileSync(
    join(out, `${entry}.js`),
    `'use strict';\n// See scripts/bundle.js in the mcpkit repository (packages/core).\nmodule.exports = require('./core.js').${entry};\n0 && (module.exports = { __esModule: true, ${names.join(', ')} });\n`,
  );
}
