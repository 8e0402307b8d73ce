// Bundles @mcpkit/stdio's compiled JavaScript (dist/, from tsc) into one file, run by the
// package's build after tsc: a stdio server loads all of its five modules at start-up, each a
// path resolution, a stat and a compile-cache lookup for Node; one file takes ~1.5 ms off a cold
// start on Node 24 (docs/benchmarks.md). @mcpkit/core and every other package stay external.
// Types are tsc's, per file. esbuild is a build-time tool only (devDependency).
'use strict';

const { join } = require('node:path');
const { buildSync } = require('esbuild');
const { BUNDLE_OPTIONS } = require('../../../scripts/bundle-options');
const { writeOutputFiles } = require('../../../scripts/write-if-changed');

const dist = join(__dirname, '..', 'dist');
const outfile = join(dist, 'bundle', 'index.js');

// Written only when changed (scripts/write-if-changed.js): a build of an unchanged tree rewrites nothing.
const { outputFiles } = buildSync({ ...BUNDLE_OPTIONS, write: false, entryPoints: [join(dist, 'index.js')], outfile });

// One character outside ASCII would make V8 keep and scan the source as two-byte text.
// eslint-disable-next-line no-control-regex -- every character outside ASCII, control characters aside
if (outputFiles.some((file) => file.path === outfile && /[^\x00-\x7f]/.test(file.text)))
  throw new Error(`${outfile}: a character outside ASCII; escape it in src`);
writeOutputFiles(outputFiles);
