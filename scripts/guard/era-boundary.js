#!/usr/bin/env node
// Where the protocol eras leak out of core's eras/ folder: source files (specs left out) that name
// a protocol revision (a date of the revision list) in code, use an era name ("modern", "legacy") as an identifier,
// or give the legacy era its deprecated name ('handshake' as a string),
// outside an eras/ folder (core's codecs, the test client's dialects) and the one list of
// supported revisions. Comments do not count:
// they may explain a revision to a reader. `node scripts/guard/era-boundary.js` prints the report.
const { readdirSync, readFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const ts = require('typescript');
const { sourceFiles } = require('./source-files');

const ROOT = join(__dirname, '..', '..');
const ALLOWED = [
  // Each package's eras/ folder: core's codecs, the test client's era dialects.
  /^packages\/[a-z-]+\/src\/eras\//,
  /^packages\/core\/src\/protocol\/protocol-versions\.ts$/,
  // Entry points only re-export names (MODERN_PROTOCOL_VERSIONS …).
  /^packages\/[a-z-]+\/src\/(index|transport)\.ts$/,
];
// Revision dates are the dates of the one list; a date that is data (a `date-time` sample in a
// schema) names no revision.
const REVISIONS = new Set(readFileSync(join(ROOT, 'packages', 'core', 'src', 'protocol', 'protocol-versions.ts'), 'utf8').match(/\b20\d\d-\d\d-\d\d\b/g));
const DATES = /\b20\d\d-\d\d-\d\d\b/g;
const namesRevision = (text) => (text.match(DATES) ?? []).some((date) => REVISIONS.has(date));
// Every name the eras have had: legacy and modern (issue #27), handshake and stateless (their
// older names). `legacySse` (the old HTTP+SSE transport) is not an era.
const ERA_WORD = /modern|legacy|handshake|stateless/i;
const NOT_AN_ERA = /legacy_?sse/i;
// The eras are 'legacy' and 'modern' (issue #27): 'handshake', the legacy era's old name, is read
// only where the deprecated alias is accepted, in an eras/ folder. Only the whole literal counts
// ("handshake-era" in a message is prose).
const OLD_ERA_NAME = 'handshake';

/** Revision dates in literals and era words in identifiers of one source text (comments are not nodes). */
function countLeaks(source) {
  const file = ts.createSourceFile('leaks.ts', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  let count = 0;
  const visit = (node) => {
    if (ts.isIdentifier(node)) {
      if (ERA_WORD.test(node.text) && !NOT_AN_ERA.test(node.text)) count += 1;
    } else if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      // Module specifiers name files (eras/modern/…), not revisions.
      const specifier = node.parent && (ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent));
      if ((namesRevision(node.text) || node.text === OLD_ERA_NAME) && !specifier) count += 1;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return count;
}

/** `countLeaks` of every source file outside the allowed places, by path. */
function leaks() {
  const result = {};
  for (const base of ['packages']) {
    for (const pkg of readdirSync(join(ROOT, base))) {
      for (const file of sourceFiles(join(ROOT, base, pkg, 'src'))) {
        const path = relative(ROOT, file).split('\\').join('/');
        if (ALLOWED.some((pattern) => pattern.test(path))) continue;
        const count = countLeaks(readFileSync(file, 'utf8'));
        if (count > 0) result[path] = count;
      }
    }
  }
  return result;
}

const BASELINE = join(__dirname, 'era-boundary.baseline.json');

/** The leaks that exist today, by file: the counts may only shrink. */
function readBaseline() {
  return JSON.parse(readFileSync(BASELINE, 'utf8')).leaks;
}

/**
 * Today's leaks against the baseline: `grown`, files over their count (or not listed);
 * `shrunk`, listed files now under it (lower the count, or drop the file, in the baseline).
 */
function compare(found, baseline) {
  const grown = Object.keys(found)
    .filter((file) => found[file] > (baseline[file] ?? 0))
    .sort();
  const shrunk = Object.keys(baseline)
    .filter((file) => (found[file] ?? 0) < baseline[file])
    .sort();
  return { grown, shrunk };
}

module.exports = { compare, countLeaks, leaks, readBaseline };

if (require.main === module) {
  const found = leaks();
  const baseline = readBaseline();
  const { grown, shrunk } = compare(found, baseline);
  const sorted = Object.entries(found).sort((a, b) => b[1] - a[1]);
  console.log(`era leaks outside the eras/ folders (dates in code, era words in identifiers, 'handshake' as an era): ${sorted.length === 0 ? 'none' : ''}`);
  for (const [file, count] of sorted) {
    const mark = grown.includes(file)
      ? `  <- over the baseline (${baseline[file] ?? 0})`
      : shrunk.includes(file)
        ? `  <- under the baseline (${baseline[file]}): lower it`
        : '';
    console.log(`  ${String(count).padStart(3)}  ${file}${mark}`);
  }
  for (const file of shrunk) if (found[file] === undefined) console.log(`  baseline lists ${file}, which leaks no more: remove it`);
  process.exitCode = grown.length === 0 && shrunk.length === 0 ? 0 : 1;
}
