// Preloaded into Node 24 processes (NODE_OPTIONS="--require ./scripts/node24-preload.js") so that
// native addons load their Node 24 build from .cache/node24/addons (see node24.js) instead of the
// Node 20 build in node_modules. Does nothing on another Node or before `node24.js --addons` ran.
'use strict';

const { readFileSync, realpathSync } = require('node:fs');
const { join } = require('node:path');

let map;
try {
  map = JSON.parse(readFileSync(join(__dirname, '..', '.cache', 'node24', 'addons', 'map.json'), 'utf8'));
} catch {
  map = undefined;
}

if (map && map.abi === process.versions.modules) {
  const dlopen = process.dlopen;
  process.dlopen = function dlopenNode24Build(module, filename, ...rest) {
    let real = filename;
    try {
      real = realpathSync(filename);
    } catch {
      // Not a file we know: let dlopen report it.
    }
    return dlopen.call(this, module, map.binaries[real] ?? filename, ...rest);
  };
}
