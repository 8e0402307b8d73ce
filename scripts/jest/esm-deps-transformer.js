// Compiles ESM-only dependencies (jose) to CommonJS for jest, which on Node < 24.9 cannot
// require(esm) (auth.md §5). A transformer of its own, on TypeScript's transpileModule: jest
// and ts-jest share one transformer and one configuration across patterns, so ts-jest would
// compile these files with our sources' options (useDefineForClassFields: false breaks jose's
// error classes: "Must call super constructor").
const { createHash } = require('node:crypto');
const ts = require('typescript');

const COMPILER_OPTIONS = {
  allowJs: true,
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  useDefineForClassFields: true,
  inlineSourceMap: true,
};

module.exports = {
  process(source, filename) {
    return { code: ts.transpileModule(source, { fileName: filename, compilerOptions: COMPILER_OPTIONS }).outputText };
  },
  getCacheKey(source, filename) {
    return createHash('sha256').update(ts.version).update('\0').update(filename).update('\0').update(source).digest('hex');
  },
};
