// Build outputs written only when their bytes change, and then atomically (a temporary file
// renamed over the old one): a second `pnpm build` of an unchanged tree rewrites nothing, so it is
// safe beside a process that is loading dist/ (tsc's incremental build already emits nothing
// then), and a reader never sees half a file. Build-time only.
'use strict';

const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { dirname } = require('node:path');

/** Writes the text `contents` to `path` unless the file already holds exactly that; says whether it wrote. */
function writeIfChanged(path, contents) {
  try {
    if (readFileSync(path, 'utf8') === contents) return false;
  } catch {
    // not there yet
  }
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
  return true;
}

/** Writes esbuild's `outputFiles` (a build with `write: false`) through writeIfChanged; `transform` may rewrite a file's text. */
function writeOutputFiles(outputFiles, transform = (text) => text) {
  for (const file of outputFiles) writeIfChanged(file.path, transform(file.text, file.path));
}

module.exports = { writeIfChanged, writeOutputFiles };
