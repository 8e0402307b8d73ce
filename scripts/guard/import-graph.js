#!/usr/bin/env node
'use strict';
/**
 * The import graph of every non-spec source file under packages/*\/src and apps/*\/src: its
 * import cycles (strongly connected components, Tarjan) and the folder-level layering of core.
 * README.md beside this file says how to read the report. Plain CommonJS so it runs without a
 * build: `node scripts/guard/import-graph.js [--json] [--shrink] [--root DIR]`.
 *
 * Edges: relative imports and `@mcpkit/*` imports (resolved to the package's src entry or the
 * subpath its package.json `exports` names). `import type`, `export type … from`, `import('x').T`
 * and lazy `require()`/`import()` all count: an erased import still means neither file can be read,
 * moved or published without the other, so a type-only cycle knots the layering as much as a
 * runtime one. The report marks them so a reader knows which edges are cheap to cut.
 */
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join, relative, sep } = require('node:path');
const ts = require('typescript');

const ROOT = join(__dirname, '..', '..');
const BASELINE = join(__dirname, 'import-graph.baseline.json');

/**
 * core's folders, lowest layer first (architecture.md §1: protocol → errors → metadata → model →
 * decorators → schema/validation → scanner → app → eras → dispatcher → transports). A folder may import its own
 * layer and any layer before it. Helpers that know no protocol sit at the bottom; wire (encode and
 * parse) and results (content builders) need only protocol and errors. `(entry)` is a file at the
 * root of src (index.ts, compile-cache.ts): the public surface, imported by no one inside core.
 * A folder missing here is reported, so a new folder must be given a place.
 */
const CORE_LAYERS = [
  ['types', 'uri-template', 'logging', 'startup', 'auth'],
  ['protocol'],
  ['errors'],
  ['wire', 'results'],
  ['metadata'],
  // model: the types the layers above share (the RequestContext handlers, guards and decorators
  // are given, client info, transport facts, session snapshot), so that neither a decorator nor a
  // codec needs the dispatcher.
  ['model'],
  ['decorators'],
  ['schema', 'validation'],
  ['scanner'],
  ['app'],
  // eras: the codecs, leaves below the dispatcher that asks them (architecture.md §1).
  ['eras'],
  // pipeline: guards, interceptors and filters run inside the dispatcher, on its RequestContext.
  ['dispatcher', 'pipeline'],
  // The define* functions apply decorators and type their handlers' RequestContext.
  ['define'],
  ['server'],
  ['transport', 'transports', 'http'],
  ['(entry)'],
];

/** Every `packages/*` and `apps/*` workspace: name → { dir, exports }. */
function workspaces(root) {
  const found = new Map();
  for (const group of ['packages', 'apps']) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base)) {
      const manifest = join(base, name, 'package.json');
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
      found.set(pkg.name, { dir: join(base, name), exports: pkg.exports });
    }
  }
  return found;
}

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : walk(path);
    return /\.ts$/.test(name) && !/\.(spec|d)\.ts$/.test(name) ? [path] : [];
  });
}

/**
 * The module specifiers a file names, with whether each is type-only and its line. Parsed, not
 * grepped, so an import shown in a JSDoc example or a template string is not an edge.
 */
function importsOf(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const add = (literal, typeOnly) => {
    if (!literal || !ts.isStringLiteralLike(literal)) return;
    const line = source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1;
    found.push({ spec: literal.text, typeOnly, line });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      add(node.moduleSpecifier, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const typeOnly =
        node.isTypeOnly ||
        (!!node.exportClause &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.length > 0 &&
          node.exportClause.elements.every((element) => element.isTypeOnly));
      add(node.moduleSpecifier, typeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1) {
      const lazy = node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require');
      if (lazy) add(node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function firstFile(candidates) {
  return candidates.find((path) => existsSync(path) && statSync(path).isFile()) ?? null;
}

function asSource(path) {
  const base = path.replace(/\.(d\.ts|ts|js|cjs|mjs)$/, '');
  return firstFile([`${base}.ts`, join(base, 'index.ts')]);
}

/** Where an `@mcpkit/<pkg>[/sub]` import lands in that package's src, or null when outside the repo. */
function resolvePackage(spec, packages) {
  const match = /^(@mcpkit\/[^/]+)(\/.*)?$/.exec(spec);
  const pkg = match && packages.get(match[1]);
  if (!pkg) return null;
  const subpath = `.${match[2] ?? ''}`;
  let target = pkg.exports && typeof pkg.exports === 'object' ? pkg.exports[subpath] : undefined;
  if (typeof pkg.exports === 'string' && subpath === '.') target = pkg.exports;
  if (target && typeof target === 'object') target = target.types ?? target.require ?? target.default;
  if (typeof target === 'string') {
    // exports name built files; the graph is of sources, so dist/x.d.ts means src/x.ts.
    const resolved = asSource(join(pkg.dir, target.replace(/^\.\/dist\//, './src/')));
    if (resolved) return resolved;
  }
  return asSource(join(pkg.dir, 'src', match[2] ? match[2].slice(1) : 'index'));
}

function resolveSpec(from, spec, packages) {
  if (spec.startsWith('.')) return asSource(join(dirname(from), spec));
  if (spec.startsWith('@mcpkit/')) return resolvePackage(spec, packages);
  return null;
}

const toPosix = (path) => path.split(sep).join('/');

/**
 * The graph: `files` (repo-relative, sorted) and `edges` (file → [{ to, typeOnly, line, spec }]).
 * An import that resolves to no source file (a package outside the repo, a JSON file) is no edge.
 */
function buildGraph(root = ROOT) {
  const packages = workspaces(root);
  const absolute = [...packages.values()].flatMap((pkg) => walk(join(pkg.dir, 'src'))).sort();
  const files = absolute.map((path) => toPosix(relative(root, path)));
  const edges = new Map(files.map((file) => [file, []]));
  for (const path of absolute) {
    const from = toPosix(relative(root, path));
    for (const { spec, typeOnly, line } of importsOf(path, readFileSync(path, 'utf8'))) {
      const target = resolveSpec(path, spec, packages);
      if (!target) continue;
      const to = toPosix(relative(root, target));
      if (!edges.has(to)) continue;
      // One edge per target; it is type-only only if every import of that target is.
      const existing = edges.get(from).find((edge) => edge.to === to);
      if (existing) existing.typeOnly &&= typeOnly;
      else edges.get(from).push({ to, typeOnly, line, spec });
    }
  }
  return { files, edges };
}

/** Tarjan's strongly connected components with more than one file (or a file importing itself), each sorted, sorted by first file. */
function cycles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const found = [];
  const connect = (file) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const { to } of graph.edges.get(file)) {
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file), index.get(to)));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    const selfLoop = graph.edges.get(file).some((edge) => edge.to === file);
    if (component.length > 1 || selfLoop) found.push(component.sort());
  };
  for (const file of graph.files) if (!index.has(file)) connect(file);
  return found.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** The edges between members of one component: what has to be cut to untie it. */
function edgesWithin(graph, component) {
  const members = new Set(component);
  return component.flatMap((from) =>
    graph.edges
      .get(from)
      .filter((edge) => members.has(edge.to))
      .map((edge) => ({ from, ...edge })),
  );
}

const CORE_SRC = 'packages/core/src/';

function coreFolder(file) {
  const rest = file.slice(CORE_SRC.length);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : '(entry)';
}

function layerOf(folder) {
  const rank = CORE_LAYERS.findIndex((layer) => layer.includes(folder));
  return rank < 0 ? null : rank;
}

/**
 * Folder-level edges inside core that go upward (a lower layer importing a higher one), as
 * `{ edge: 'app -> dispatcher', files: ['from:line -> to', …] }`, plus folders with no layer.
 */
function layering(graph) {
  const upward = new Map();
  const unplaced = new Set(
    graph.files
      .filter((file) => file.startsWith(CORE_SRC))
      .map(coreFolder)
      .filter((folder) => layerOf(folder) === null),
  );
  for (const [from, list] of graph.edges) {
    if (!from.startsWith(CORE_SRC)) continue;
    for (const edge of list) {
      if (!edge.to.startsWith(CORE_SRC)) continue;
      const a = coreFolder(from);
      const b = coreFolder(edge.to);
      if (a === b) continue;
      const rankA = layerOf(a);
      const rankB = layerOf(b);
      if (rankA === null || rankB === null || rankB <= rankA) continue;
      const key = `${a} -> ${b}`;
      if (!upward.has(key)) upward.set(key, []);
      upward.get(key).push(`${from}:${edge.line} -> ${edge.to}${edge.typeOnly ? ' (type)' : ''}`);
    }
  }
  const violations = [...upward.keys()].sort().map((edge) => ({ edge, files: upward.get(edge).sort() }));
  return { violations, unplaced: [...unplaced].sort() };
}

function readBaseline(path = BASELINE) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/**
 * Compares today's graph with the baseline, which may only shrink. `added`: a cycle that is not
 * inside a listed one (new, or grown) or an upward edge not listed. `stale`: a listed cycle or edge
 * that no longer exists as written (fixed or shrunk): take it out of the baseline.
 */
function compare(found, baseline) {
  const key = (component) => component.join('\n');
  const listed = new Set(baseline.cycles.map(key));
  const current = new Set(found.cycles.map(key));
  const inside = (component) => baseline.cycles.some((allowed) => component.every((file) => allowed.includes(file)));
  const edges = new Set(found.violations.map((violation) => violation.edge));
  return {
    addedCycles: found.cycles.filter((component) => !inside(component)),
    staleCycles: baseline.cycles.filter((component) => !current.has(key(component))),
    shrunkCycles: found.cycles.filter((component) => inside(component) && !listed.has(key(component))),
    addedEdges: [...edges].filter((edge) => !baseline.layerViolations.includes(edge)),
    staleEdges: baseline.layerViolations.filter((edge) => !edges.has(edge)),
  };
}

// A named era's folder, and the entry points (they re-export public names, and use none).
const NAMED_ERA = /^packages\/core\/src\/eras\/[^/]+\//;
const CORE_ENTRY = /^packages\/core\/src\/[^/]+\.ts$/;

/**
 * Imports of a named era's folder (`eras/<name>/…`) by core files outside `eras/`: the rest of
 * core asks the eras through their contract (`eras/era.ts`, `eras/eras.ts`, `eras/app-state.ts`),
 * never one era by name (architecture.md §1). As `from:line -> to`, sorted.
 */
function namedEraImports(graph) {
  const found = [];
  for (const [from, list] of graph.edges) {
    if (!from.startsWith('packages/core/src/') || from.startsWith('packages/core/src/eras/') || CORE_ENTRY.test(from)) continue;
    for (const edge of list) if (NAMED_ERA.test(edge.to)) found.push(`${from}:${edge.line} -> ${edge.to}`);
  }
  return found.sort();
}

function analyse(root = ROOT) {
  const graph = buildGraph(root);
  const found = cycles(graph);
  const { violations, unplaced } = layering(graph);
  return { graph, cycles: found, violations, unplaced };
}

function report(result, diff) {
  const lines = [];
  const { graph } = result;
  const edgeCount = [...graph.edges.values()].reduce((sum, list) => sum + list.length, 0);
  lines.push(`import graph: ${graph.files.length} files, ${edgeCount} edges (packages/*/src, apps/*/src; specs left out)`);
  lines.push('');
  lines.push(`cycles (strongly connected components): ${result.cycles.length}`);
  result.cycles.forEach((component, n) => {
    const mark = diff && diff.addedCycles.includes(component) ? '  <- NEW (not in the baseline)' : '';
    lines.push(`  #${n + 1}: ${component.length} files${mark}`);
    for (const file of component) lines.push(`      ${file}`);
    lines.push('    edges inside it (cut one per loop to untie it; "type" = import type only):');
    for (const edge of edgesWithin(graph, component)) {
      lines.push(`      ${edge.from}:${edge.line} -> ${edge.to}${edge.typeOnly ? '  (type)' : ''}`);
    }
  });
  lines.push('');
  lines.push(`core layering, lowest first: ${CORE_LAYERS.map((layer) => layer.join('/')).join(' -> ')}`);
  lines.push(`upward folder edges: ${result.violations.length}`);
  for (const { edge, files } of result.violations) {
    const mark = diff && diff.addedEdges.includes(edge) ? '  <- NEW (not in the baseline)' : '';
    lines.push(`  ${edge}${mark}`);
    for (const file of files) lines.push(`      ${file}`);
  }
  const named = namedEraImports(graph);
  lines.push(`imports of a named era (eras/<name>/) from outside eras/: ${named.length}`);
  for (const edge of named) lines.push(`  ${edge}`);
  if (result.unplaced.length > 0) lines.push(`core folders with no layer (add them to CORE_LAYERS): ${result.unplaced.join(', ')}`);
  if (diff) {
    lines.push('');
    for (const component of diff.staleCycles) lines.push(`baseline cycle no longer exists as listed (starts ${component[0]}): shrink or remove it`);
    for (const edge of diff.staleEdges) lines.push(`baseline layer violation gone: ${edge}: remove it`);
  }
  return lines.join('\n');
}

function main(argv) {
  // --root DIR analyses another checkout (e.g. `git archive HEAD` unpacked) against this baseline.
  const rootAt = argv.indexOf('--root');
  const result = analyse(rootAt >= 0 ? argv[rootAt + 1] : ROOT);
  const baseline = existsSync(BASELINE) ? readBaseline() : { cycles: [], layerViolations: [] };
  const diff = compare(result, baseline);
  if (argv.includes('--json')) {
    const json = { cycles: result.cycles, layerViolations: result.violations.map((violation) => violation.edge) };
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(`${report(result, diff)}\n`);
  if (argv.includes('--shrink')) {
    // Writes today's state only when it is inside the baseline: the list never grows by a command.
    if (diff.addedCycles.length > 0 || diff.addedEdges.length > 0 || result.unplaced.length > 0) {
      process.stderr.write(
        '\nnot written: there are new cycles, upward edges or unplaced folders (fix them, or edit the baseline by hand and say why in the commit)\n',
      );
      return 1;
    }
    const next = { ...baseline, cycles: result.cycles, layerViolations: result.violations.map((violation) => violation.edge) };
    writeFileSync(BASELINE, `${JSON.stringify(next, null, 2)}\n`);
    // Laid out as `pnpm format` would, so the format check stays clean; skipped where Prettier is not installed.
    try {
      execFileSync(process.execPath, [require.resolve('prettier/bin/prettier.cjs', { paths: [ROOT] }), '--write', BASELINE], { stdio: 'ignore' });
    } catch {
      // The file is valid JSON either way.
    }
    process.stdout.write(`\nwrote ${toPosix(relative(ROOT, BASELINE))}\n`);
  }
  const clean = diff.addedCycles.length + diff.addedEdges.length + diff.staleCycles.length + diff.staleEdges.length + result.unplaced.length === 0;
  return clean ? 0 : 1;
}

module.exports = { CORE_LAYERS, analyse, buildGraph, compare, cycles, edgesWithin, importsOf, layering, namedEraImports, readBaseline, report };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
