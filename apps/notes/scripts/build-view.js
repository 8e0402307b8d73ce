// Builds the notes board (view/board.ts, an MCP Apps view) into one HTML document, dist/board.html:
// esbuild bundles the view with the extension's App SDK (@modelcontextprotocol/ext-apps, a
// devDependency: nothing of it is loaded by the server) into one script, inlined into
// view/board.html. A host renders the view in a sandboxed iframe whose CSP allows inline scripts
// and styles but no other origin, so the document must carry everything. Run by `pnpm build`
// after tsc; view/tsconfig.json type-checks the view (esbuild only strips types).
'use strict';

const { spawnSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { buildSync } = require('esbuild');
const { writeIfChanged } = require('../../../scripts/write-if-changed');

const root = join(__dirname, '..');
const PLACEHOLDER = '/* board.js */';

const checked = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'view', 'tsconfig.json')], { stdio: 'inherit' });
if (checked.status !== 0) process.exit(checked.status ?? 1);

const { outputFiles } = buildSync({
  entryPoints: [join(root, 'view', 'board.ts')],
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
// Inside <script>, "</script" would end the element (and "<!--" open an HTML comment).
const script = outputFiles[0].text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
const template = readFileSync(join(root, 'view', 'board.html'), 'utf8');
if (!template.includes(PLACEHOLDER)) throw new Error(`view/board.html has no ${PLACEHOLDER} to replace`);
const html = template.replace(PLACEHOLDER, () => script);
// Written only when changed: a build of an unchanged tree rewrites nothing (scripts/write-if-changed.js).
writeIfChanged(join(root, 'dist', 'board.html'), html);
console.log(`dist/board.html: ${(Buffer.byteLength(html) / 1024).toFixed(0)} kB`);
