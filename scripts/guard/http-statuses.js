#!/usr/bin/env node
// Where an HTTP status or a wire error is decided outside the one table (issue #27, item 4): the
// transport's statuses come from `packages/http/src/transport-faults.ts` and the eras' tables in
// core, so every binding answers alike. In the HTTP core and the bindings (packages/http,
// packages/fastify, packages/stdio; specs left out), it reports
// - a numeric status (100-599) passed to a result builder, set as a `status` / `statusCode`
//   property or assigned to one;
// - a function that takes a status (a parameter named `status`): a builder of its own, and the
//   numbers passed to it; a call of the table's `clientErrorResult`, which takes one;
// - a wire error made there: `new` of core's `McpError` or one of its subclasses.
// `node scripts/guard/http-statuses.js [root]` prints each as file:line; it exits 1 when any.
const { readFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const ts = require('typescript');
const { sourceFiles } = require('./source-files');

const ROOT = join(__dirname, '..', '..');
const SCOPE = ['packages/http/src', 'packages/fastify/src', 'packages/stdio/src'];
const TABLE = 'packages/http/src/transport-faults.ts';
// Functions that put a status on an answer: the table's builders, and the ones of node:http,
// Fastify and the fetch API, should a binding write a status itself.
const BUILDERS = new Set([
  'faultResult',
  'answerResult',
  'eraAnswerResult',
  'bodyResult',
  'streamResult',
  'errorResult',
  'jsonResult',
  'emptyResult',
  'writeHead',
  'code',
  'status',
  'Response',
]);
// Builders that take the status from their caller: only the table may call them.
const STATUS_TAKING = new Set(['clientErrorResult']);
const STATUS_PROPERTIES = new Set(['status', 'statusCode']);

const isStatus = (node) => ts.isNumericLiteral(node) && Number(node.text) >= 100 && Number(node.text) <= 599;
const nameOf = (node) => (ts.isIdentifier(node) ? node.text : ts.isPropertyAccessExpression(node) ? node.name.text : undefined);

/** Core's wire error classes: `McpError` and every class that extends it, by name. */
function wireErrorClasses(root) {
  const parents = new Map();
  for (const file of sourceFiles(join(root, 'packages', 'core', 'src'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\bclass\s+(\w+)\s+extends\s+(\w+)/g)) parents.set(match[1], match[2]);
  }
  const wire = new Set(['McpError']);
  for (let grew = true; grew;) {
    grew = false;
    for (const [child, parent] of parents) {
      if (!wire.has(child) && wire.has(parent)) grew = wire.add(child) !== undefined;
    }
  }
  return wire;
}

/**
 * Why `literal` is a status decided here: it is (part of) an argument of a result builder, or
 * the value of a `status` property or assignment. Undefined for any other number.
 */
function statusUse(literal, builders) {
  let child = literal;
  for (let node = literal.parent; node && !ts.isStatement(node) && !ts.isFunctionLike(node); child = node, node = node.parent) {
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && node.arguments?.includes(child)) {
      const name = nameOf(node.expression);
      return builders.has(name) ? `status ${literal.text} passed to ${name}()` : undefined;
    }
    if (ts.isPropertyAssignment(node) && node.initializer === child) {
      const name = node.name.getText();
      return STATUS_PROPERTIES.has(name) ? `status ${literal.text} set as ${name}` : undefined;
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && node.right === child) {
      const name = nameOf(node.left);
      return STATUS_PROPERTIES.has(name) ? `status ${literal.text} assigned to ${name}` : undefined;
    }
  }
  return undefined;
}

const takesStatus = (node) => ts.isFunctionLike(node) && node.parameters.some((p) => ts.isIdentifier(p.name) && STATUS_PROPERTIES.has(p.name.text));

/** The names of the functions and methods of `file` that take a status. */
function localBuilders(file) {
  const names = new Set();
  const visit = (node) => {
    if (takesStatus(node) && node.name !== undefined) names.add(node.name.getText(file));
    if (takesStatus(node) && ts.isVariableDeclaration(node.parent)) names.add(node.parent.name.getText(file));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return names;
}

/** The violations of one source text, as `line: what` (lines from 1). */
function check(source, wireErrors) {
  const file = ts.createSourceFile('checked.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const builders = new Set([...BUILDERS, ...localBuilders(file)]);
  const found = [];
  const report = (node, what) => found.push(`${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}: ${what}`);
  const visit = (node) => {
    if (takesStatus(node)) report(node, `${node.name?.getText(file) ?? 'a function'} takes a status: name a fault of ${TABLE}`);
    if (isStatus(node)) {
      const use = statusUse(node, builders);
      if (use) report(node, use);
    } else if (ts.isCallExpression(node) && STATUS_TAKING.has(nameOf(node.expression))) {
      report(node, `${nameOf(node.expression)}() takes its status from the caller: name a fault of ${TABLE}`);
    } else if (ts.isNewExpression(node) && wireErrors.has(nameOf(node.expression))) {
      report(node, `wire error new ${nameOf(node.expression)}(): name a fault of ${TABLE} (or core's answer)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Every violation under the scope, outside the table, as `path:line: what`. */
function violations(root = ROOT) {
  const wireErrors = wireErrorClasses(root);
  const found = [];
  for (const dir of SCOPE) {
    for (const file of sourceFiles(join(root, dir))) {
      const path = relative(root, file).split('\\').join('/');
      if (path === TABLE) continue;
      for (const line of check(readFileSync(file, 'utf8'), wireErrors)) found.push(`${path}:${line}`);
    }
  }
  return found;
}

module.exports = { check, violations, wireErrorClasses, TABLE };

if (require.main === module) {
  const root = process.argv[2] ?? ROOT;
  const found = violations(root);
  for (const line of found) console.log(line);
  console.log(`${found.length} outside ${TABLE}`);
  process.exitCode = found.length > 0 ? 1 : 0;
}
