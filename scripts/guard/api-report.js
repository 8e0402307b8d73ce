#!/usr/bin/env node
'use strict';
/**
 * The public surface of every package under packages/, read from its built .d.ts: for each entry
 * point in package.json `exports`, every exported name with its kind and declaration (classes with
 * their non-private members), written to api/<package>.api.md. README.md beside this file says how
 * to read a report.
 *
 *   node scripts/guard/api-report.js            compare with the committed reports, print the diff
 *   node scripts/guard/api-report.js --write    rewrite them (`pnpm api:report` builds first)
 *   --root DIR                                  another checkout (built) instead of this one
 *
 * Written on the TypeScript compiler API rather than api-extractor: api-extractor reads one entry
 * point per run (core has two, and adapters are gaining subpaths), needs its own TypeScript and a
 * config per entry, and warns about release tags we do not use; this reads all entries of a
 * package in one program, with the compiler the repo already pins.
 */
const { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } = require('node:fs');
const { execFileSync } = require('node:child_process');
const { tmpdir } = require('node:os');
const { join, relative, resolve, sep } = require('node:path');
const ts = require('typescript');

const ROOT = join(__dirname, '..', '..');
const COMMAND = 'pnpm api:report';
const toPosix = (path) => path.split(sep).join('/');

/** Each package under packages/ that has `exports`: { name, dir, short, entries: [{ subpath, name, dts }] }. */
function packagesOf(root) {
  const base = resolve(root, 'packages');
  return readdirSync(base)
    .filter((dir) => existsSync(join(base, dir, 'package.json')))
    .sort()
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(join(base, dir, 'package.json'), 'utf8'));
      const exportsField =
        typeof manifest.exports === 'string' || !manifest.exports ? { '.': manifest.exports ?? manifest.types ?? manifest.main } : manifest.exports;
      const entries = Object.keys(exportsField)
        .filter((subpath) => !subpath.endsWith('.json'))
        .sort()
        .map((subpath) => {
          let target = exportsField[subpath];
          if (target && typeof target === 'object') target = target.types ?? target.require ?? target.default;
          const dts = typeof target === 'string' ? join(base, dir, target.replace(/\.(c|m)?js$/, '.d.ts')) : null;
          return { subpath, name: `${manifest.name}${subpath.slice(1)}`, dts };
        });
      return { name: manifest.name, dir: join(base, dir), short: dir, entries };
    });
}

const KIND = [
  [ts.SymbolFlags.Class, 'class'],
  [ts.SymbolFlags.Interface, 'interface'],
  [ts.SymbolFlags.TypeAlias, 'type'],
  [ts.SymbolFlags.Function, 'function'],
  [ts.SymbolFlags.Enum, 'enum'],
  [ts.SymbolFlags.Variable, 'const'],
  [ts.SymbolFlags.Module, 'namespace'],
];

function kindsOf(symbol) {
  return KIND.filter(([flag]) => symbol.flags & flag).map(([, kind]) => kind);
}

/** Tags that tell a reader a name is not a plain public one. */
function stability(node) {
  const tags = ts.getJSDocTags(node).map((tag) => tag.tagName.text);
  return ['internal', 'deprecated', 'experimental', 'beta', 'alpha'].filter((tag) => tags.includes(tag));
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

function print(node, source) {
  return printer.printNode(ts.EmitHint.Unspecified, node, source);
}

const isPrivate = (member) =>
  (ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Private) !== 0 || (member.name !== undefined && ts.isPrivateIdentifier(member.name));

const withoutExport = (text) => text.replace(/^(export\s+)?(default\s+)?(declare\s+)?/, '');

/** A class or interface: its header, then each non-private member on its own line with its tags. */
function printContainer(node, source) {
  const members = node.members.filter((member) => !isPrivate(member));
  const empty = ts.isClassDeclaration(node)
    ? ts.factory.updateClassDeclaration(node, node.modifiers, node.name, node.typeParameters, node.heritageClauses, [])
    : ts.factory.updateInterfaceDeclaration(node, node.modifiers, node.name, node.typeParameters, node.heritageClauses, []);
  const header = withoutExport(print(empty, source)).replace(/\s*\{\s*\}\s*$/, '');
  const lines = members.map((member) => {
    const tags = stability(member)
      .map((tag) => `@${tag} `)
      .join('');
    const text = print(member, source).split('\n').join('\n    ');
    return `    ${tags ? `/** ${tags.trim()} */ ` : ''}${text}`;
  });
  return lines.length === 0 ? `${header} {}` : `${header} {\n${lines.join('\n')}\n}`;
}

function printDeclaration(declaration) {
  const source = declaration.getSourceFile();
  if (ts.isClassDeclaration(declaration) || ts.isInterfaceDeclaration(declaration)) return printContainer(declaration, source);
  if (ts.isVariableDeclaration(declaration)) {
    const list = declaration.parent;
    const keyword = list.flags & ts.NodeFlags.Const ? 'const' : list.flags & ts.NodeFlags.Let ? 'let' : 'var';
    return `${keyword} ${print(declaration, source)};`;
  }
  return withoutExport(print(declaration, source));
}

/** Names a declaration refers to that resolve into this package's dist but are exported by no entry. */
function forgotten(declaration, checker, distDir, exported) {
  const found = new Set();
  const visit = (node) => {
    const name = ts.isTypeReferenceNode(node)
      ? node.typeName
      : ts.isExpressionWithTypeArguments(node)
        ? node.expression
        : ts.isTypeQueryNode(node)
          ? node.exprName
          : null;
    if (name) {
      let symbol = checker.getSymbolAtLocation(name);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      const inside = symbol?.declarations?.some((decl) => toPosix(decl.getSourceFile().fileName).startsWith(distDir));
      if (symbol && inside && !(symbol.flags & ts.SymbolFlags.TypeParameter) && !exported.has(symbol)) found.add(symbol.name);
    }
    ts.forEachChild(node, visit);
  };
  visit(declaration);
  return found;
}

/** The report of one package as markdown text, or throws when it is not built. */
function reportFor(pkg) {
  const missing = pkg.entries.filter((entry) => !entry.dts || !existsSync(entry.dts));
  if (missing.length > 0)
    throw new Error(`${pkg.name}: no built declarations for ${missing.map((entry) => entry.name).join(', ')}; run \`pnpm --filter ${pkg.name}... build\``);
  // skipLibCheck off, as in a consumer's project that keeps TypeScript's default: the package's
  // own .d.ts must compile there (stripInternal can strip a type a public signature still names).
  const program = ts.createProgram(
    pkg.entries.map((entry) => entry.dts),
    {
      noEmit: true,
      skipLibCheck: false,
      strict: true,
      types: [],
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      target: ts.ScriptTarget.ES2022,
    },
  );
  const checker = program.getTypeChecker();
  const distDir = toPosix(join(pkg.dir, 'dist'));
  const ownFiles = program.getSourceFiles().filter((file) => toPosix(file.fileName).startsWith(`${distDir}/`));
  const errors = ownFiles
    .flatMap((file) => program.getSemanticDiagnostics(file).concat(program.getSyntacticDiagnostics(file)))
    .map((diagnostic) => {
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      return `- ${toPosix(relative(pkg.dir, diagnostic.file.fileName))}:${line + 1}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
    })
    .sort();
  const resolve = (symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const exportsOf = (entry) => {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entry.dts));
    return module ? checker.getExportsOfModule(module).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) : [];
  };
  const exported = new Set(pkg.entries.flatMap((entry) => exportsOf(entry).map(resolve)));

  const out = [`# ${pkg.name}: public API`, '', `Generated from the built .d.ts by \`${COMMAND}\`; do not edit. How to read it: scripts/guard/README.md.`];
  if (errors.length > 0) out.push('', '## Declaration errors (what a consumer without skipLibCheck sees)', '', ...errors);
  for (const entry of pkg.entries) {
    const symbols = exportsOf(entry);
    out.push('', `## \`${entry.name}\` (${toPosix(relative(pkg.dir, entry.dts))}): ${symbols.length} exports`, '', '```ts');
    const leaks = new Set();
    for (const symbol of symbols) {
      const target = resolve(symbol);
      const declarations = target.declarations ?? [];
      const renamed = target.name !== symbol.name && target.name !== 'default' ? `, declared as ${target.name}` : '';
      const tags = [...new Set(declarations.flatMap(stability))].map((tag) => ` @${tag}`).join('');
      out.push(`// ${symbol.name}: ${kindsOf(target).join(' + ') || 'unknown'}${renamed}${tags}`);
      for (const declaration of declarations) {
        out.push(printDeclaration(declaration));
        for (const name of forgotten(declaration, checker, distDir, exported)) leaks.add(name);
      }
      out.push('');
    }
    if (out[out.length - 1] === '') out.pop();
    out.push('```');
    if (leaks.size > 0) out.push('', `Referenced by the above but exported by no entry point: ${[...leaks].sort().join(', ')}.`);
  }
  return `${out.join('\n')}\n`;
}

function reportPath(root, pkg) {
  return join(root, 'api', `${pkg.short}.api.md`);
}

/** Unified diff of two texts via git (present wherever the repo is), for the failure message. */
function diffOf(expected, actual, label) {
  const dir = mkdtempSync(join(tmpdir(), 'api-report-'));
  try {
    writeFileSync(join(dir, 'committed'), expected);
    writeFileSync(join(dir, 'built'), actual);
    try {
      execFileSync('git', ['diff', '--no-index', '--no-color', '-U2', 'committed', 'built'], { cwd: dir, encoding: 'utf8' });
      return '';
    } catch (error) {
      return String(error.stdout).replace(/^(---|\+\+\+) .*$/gm, (line) => (line.startsWith('---') ? `--- ${label} (committed)` : `+++ ${label} (built)`));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Every package's built report against the committed one: [{ name, path, expected, actual, diff }]
 * for those that differ (a missing report counts), plus committed reports of packages that are gone.
 */
function check(root = ROOT) {
  const packages = packagesOf(root);
  const changed = [];
  for (const pkg of packages) {
    const path = reportPath(root, pkg);
    const expected = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const actual = reportFor(pkg);
    if (expected !== actual)
      changed.push({ name: pkg.name, path: toPosix(relative(root, path)), diff: diffOf(expected, actual, toPosix(relative(root, path))) });
  }
  return { changed, orphans: orphansOf(root, packages) };
}

/** Committed reports whose package is gone. */
function orphansOf(root = ROOT, packages = packagesOf(root)) {
  const known = new Set(packages.map((pkg) => `${pkg.short}.api.md`));
  const apiDir = join(root, 'api');
  return existsSync(apiDir)
    ? readdirSync(apiDir)
        .filter((file) => file.endsWith('.api.md') && !known.has(file))
        .map((file) => `api/${file}`)
    : [];
}

function write(root = ROOT) {
  mkdirSync(join(root, 'api'), { recursive: true });
  const written = [];
  for (const pkg of packagesOf(root)) {
    const path = reportPath(root, pkg);
    const text = reportFor(pkg);
    if (!existsSync(path) || readFileSync(path, 'utf8') !== text) {
      writeFileSync(path, text);
      written.push(toPosix(relative(root, path)));
    }
  }
  return written;
}

function main(argv) {
  const rootAt = argv.indexOf('--root');
  const root = rootAt >= 0 ? argv[rootAt + 1] : ROOT;
  if (argv.includes('--write')) {
    const written = write(root);
    process.stdout.write(written.length > 0 ? `updated ${written.join(', ')}\n` : 'API reports are up to date\n');
    return 0;
  }
  const { changed, orphans } = check(root);
  for (const { diff } of changed) process.stdout.write(diff);
  for (const orphan of orphans) process.stdout.write(`${orphan}: no such package any more; delete it\n`);
  if (changed.length === 0 && orphans.length === 0) {
    process.stdout.write('API reports match the built surface\n');
    return 0;
  }
  process.stdout.write(`\nthe public surface changed; if that is intended run \`${COMMAND}\` and commit api/\n`);
  return 1;
}

module.exports = { COMMAND, check, diffOf, orphansOf, packagesOf, reportFor, write };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
