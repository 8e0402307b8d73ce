'use strict';
/** The non-spec TypeScript sources under a folder, for the guards that read them. Plain CommonJS. */
const { readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

/**
 * Every `.ts` file under `dir` that is neither a spec nor a declaration file, `node_modules` and
 * `dist` left out; none for a folder that does not exist (another checkout may lack a package).
 */
function sourceFiles(dir, found = []) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return found;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist') sourceFiles(path, found);
    } else if (name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

module.exports = { sourceFiles };
