// The esbuild options the packages' bundle scripts share (packages/core/scripts/bundle.js,
// packages/stdio/scripts/bundle.js): build-time only.
'use strict';

/**
 * One CommonJS file for Node 20 and later. Packages stay external (an app shares them); tsc's
 * source maps of dist/*.js are read, so stack traces still name src/*.ts (--enable-source-maps).
 */
exports.BUNDLE_OPTIONS = Object.freeze({
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
});
