// Bundles @mcpkit/core into one file (from its TypeScript sources; compile-cache.js from tsc's
// dist/), run by the package's build after tsc. A server loads ~90 of core's modules at start-up,
// each costing Node a path resolution, a stat and a compile-cache lookup (~0.25 ms): one file
// takes ~20 ms off a stdio server's cold start on Node 24 (docs/stdio.md, "Start-up time").
//
//   dist/bundle/core.js       both entry points' modules, once (so `instanceof` holds across them)
//   dist/bundle/index.js      `@mcpkit/core`            → core.js's index
//   dist/bundle/transport.js  `@mcpkit/core/transport`  → core.js's transport
//   dist/bundle/compile-cache.js  `@mcpkit/core/compile-cache`, the start-up opt-in, alone: it
//                             runs before anything heavy loads, so it must not pull the rest of
//                             core in. With it imported first, the entries load core.js through
//                             its loader that keeps the code compiled (src/startup/cached-bundle.ts);
//                             without it, with a plain require: importing core changes nothing
//                             outside mcpkit, and an app bundled as ES module never reaches the
//                             `__dirname` of that branch.
//
// Packages stay external (class-validator, pino …: an app shares them). Types are tsc's, per
// file, as before. esbuild is a build-time tool only (devDependency).
'use strict';

const { join } = require('node:path');
const { buildSync } = require('esbuild');
const { BUNDLE_OPTIONS } = require('../../../scripts/bundle-options');
const { writeIfChanged, writeOutputFiles } = require('../../../scripts/write-if-changed');

const dist = join(__dirname, '..', 'dist');
const SIGNATURE = '/* @mcpkit/core bundle */';
const out = join(dist, 'bundle');

// Written only when changed (scripts/write-if-changed.js): a build of an unchanged tree rewrites nothing.
const common = { ...BUNDLE_OPTIONS, write: false };

// esbuild writes strings and names as ASCII, but keeps comments as they are: one character
// outside ASCII (an ellipsis, an arrow) makes V8 hold and scan the whole 400 kB source as
// two-byte text, at every start. Escaped, a comment reads the same and the file is one-byte.
// eslint-disable-next-line no-control-regex -- every character outside ASCII, control characters aside
const ascii = (text, path) => (path.endsWith('.js') ? text.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`) : text);

// From the TypeScript sources, not tsc's CommonJS files: as ES modules, esbuild joins core's modules
// into one scope, where tsc's output would keep each in a wrapper of its own with a getter per
// re-exported name. A third less code (555 against 396 kB) for Node to read, compile and keep, and
// ~10 ms of CPU less to load it on Node 20. esbuild reads the same tsconfig.json (target, class fields).
writeOutputFiles(
  buildSync({
    ...common,
    stdin: {
      // Each entry's namespace says `__esModule`, as tsc's CommonJS entries did, so that a CommonJS
      // consumer's `import * as core` (esModuleInterop) takes it as it is.
      contents: [
        "import * as index from './index';",
        "import * as transport from './transport';",
        "for (const entry of [index, transport]) Object.defineProperty(entry, '__esModule', { value: true });",
        'export { index, transport };',
      ].join('\n'),
      resolveDir: join(__dirname, '..', 'src'),
      sourcefile: 'entries.ts',
      loader: 'ts',
    },
    tsconfig: join(__dirname, '..', 'tsconfig.json'),
    outfile: join(out, 'core.js'),
    // What the entries check before loading the file they find beside them as core's bundle.
    banner: { js: SIGNATURE },
  }).outputFiles,
  ascii,
);

writeOutputFiles(buildSync({ ...common, entryPoints: [join(dist, 'compile-cache.js')], outfile: join(out, 'compile-cache.js') }).outputFiles, ascii);

// The names, spelled out in the form Node's cjs-module-lexer reads, so that `import { createApp }
// from '@mcpkit/core'` works in an ES module app as it did with tsc's per-file output.
const bundle = require(join(out, 'core.js'));
for (const entry of ['index', 'transport']) {
  const names = Object.keys(bundle[entry]).filter((name) => name !== '__esModule');
  writeIfChanged(
    join(out, `${entry}.js`),
    `'use strict';\n// See scripts/bundle.js in the mcpkit repository (packages/core).\nconst cached = globalThis[Symbol.for('mcpkit.requireCached')];\nmodule.exports = (typeof cached === 'function' ? cached(require('node:path').join(__dirname, 'core.js'), ${JSON.stringify(SIGNATURE)}, () => require('./core.js')) : require('./core.js')).${entry};\n0 && (module.exports = { __esModule: true, ${names.join(', ')} });\n`,
  );
}
