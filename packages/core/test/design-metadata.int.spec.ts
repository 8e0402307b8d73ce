import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import vm from 'node:vm';
import ts from 'typescript';

// ts-jest transpiles file by file (tsconfig.jest.json: isolatedModules), tsc compiles a program.
// emitDecoratorMetadata differs between the two for an imported name: a program knows an
// imported enum is a number or a string and a literal-union alias a string; a lone file does not
// and emits a guarded reference, which is `Object` at run time. The scanner reads design:type
// (schema types, nested DTOs, arrays) and design:paramtypes (the input DTO): a DTO whose
// metadata changed would publish another schema under jest than in the build.

const root = join(__dirname, '..', '..', '..');
const parsed = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.jest.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
const options: ts.CompilerOptions = { ...parsed.options, noEmit: false, sourceMap: false, inlineSourceMap: false, declaration: false };

/** The form transpileModule emits for a name it cannot classify: `typeof (_a = typeof X !== "undefined" && X) === "function" ? _a : Object`. */
const GUARDED = /typeof \(_\w+ = typeof ([\w$.]+) !== "undefined" && \1\) === "function" \? _\w+ : Object/g;

/** How an exported name is declared, following re-exports; undefined when not found. */
function declarationKind(file: string, name: string, seen = new Set<string>()): string | undefined {
  if (seen.has(file)) return undefined;
  seen.add(file);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
  const resolve = (specifier: string) => ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule?.resolvedFileName;
  for (const statement of source.statements) {
    const named = (statement as { name?: ts.Identifier }).name;
    if (named?.text === name) {
      if (ts.isEnumDeclaration(statement)) return 'enum';
      if (ts.isTypeAliasDeclaration(statement)) return ts.isTypeLiteralNode(statement.type) ? 'object type' : 'type alias';
      if (ts.isInterfaceDeclaration(statement)) return 'interface';
      if (ts.isClassDeclaration(statement)) return 'class';
    }
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      const target = resolve(statement.moduleSpecifier.text);
      const clause = statement.exportClause;
      if (target === undefined || target.includes('node_modules')) continue;
      if (clause === undefined) {
        const kind = declarationKind(target, name, seen);
        if (kind !== undefined) return kind;
      } else if (ts.isNamedExports(clause)) {
        const element = clause.elements.find((e) => e.name.text === name);
        if (element) return declarationKind(target, element.propertyName?.text ?? name, seen);
      }
    }
  }
  return undefined;
}

/** The imports of a file: local name → [resolved file, exported name]. */
function importsOf(file: string, text: string): Map<string, [string, string]> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022);
  const imports = new Map<string, [string, string]>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const target = ts.resolveModuleName(statement.moduleSpecifier.text, file, options, ts.sys).resolvedModule?.resolvedFileName;
    const bindings = statement.importClause?.namedBindings;
    if (target === undefined || target.includes('node_modules') || !bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) imports.set(element.name.text, [target, element.propertyName?.text ?? element.name.text]);
  }
  return imports;
}

/** Decorator metadata a lone-file compile gets wrong: imported enums and non-object type aliases. */
function unsafeMetadata(file: string, text: string): string[] {
  const output = ts.transpileModule(text, { fileName: file, compilerOptions: options }).outputText;
  const imports = importsOf(file, text);
  const found: string[] = [];
  for (const [, reference] of output.matchAll(GUARDED)) {
    // `module_1.Name` for an imported name; a bare name is local, which the lone file knows.
    const local = reference.split('.').at(-1)!;
    const imported = imports.get(local);
    if (imported === undefined) continue;
    const kind = declarationKind(...imported);
    if (kind === 'enum' || kind === 'type alias') found.push(`${relative(root, file)}: ${local} (${kind})`);
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'fixtures') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

describe('decorator metadata under ts-jest (file by file) is the metadata of the build (a program)', () => {
  it('finds the difference where there is one: an imported enum and a literal-union alias, compiled both ways', () => {
    const dir = mkdtempSync(join(tmpdir(), 'design-metadata-'));
    const files: Record<string, string> = {
      [join(dir, 'kinds.ts')]: "export enum Level { Low, High }\nexport type Mode = 'a' | 'b';\nexport class Inner {}\n",
      [join(dir, 'dto.ts')]:
        "import { Level, Mode, Inner } from './kinds';\nconst field = (): PropertyDecorator => () => undefined;\n" +
        'export class Dto {\n  @field() level!: Level;\n  @field() mode!: Mode;\n  @field() inner!: Inner;\n  @field() name!: string;\n}\n',
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(name, text);
    const program: Record<string, string> = {};
    ts.createProgram(Object.keys(files), { ...options, types: [], rootDir: dir, outDir: join(dir, 'out') }).emit(undefined, (name, text) => {
      program[join(dir, relative(join(dir, 'out'), name)).replace(/\.js$/, '.ts')] = text;
    });
    const lone = Object.fromEntries(
      Object.entries(files).map(([name, text]) => [name, ts.transpileModule(text, { fileName: name, compilerOptions: options }).outputText]),
    );

    // Runs the compiled modules and reads each property's design:type.
    const designTypes = (compiled: Record<string, string>) => {
      const metadata = new Map<string, unknown>();
      const reflect = {
        ...Reflect,
        metadata: (key: string, value: unknown) => (_: unknown, property: string) => void (key === 'design:type' && metadata.set(property, value)),
      };
      const load = (name: string): Record<string, unknown> => {
        const module = { exports: {} as Record<string, unknown> };
        vm.runInNewContext(compiled[name], { module, exports: module.exports, require: (spec: string) => load(join(dir, `${spec}.ts`)), Reflect: reflect });
        return module.exports;
      };
      load(join(dir, 'dto.ts'));
      return Object.fromEntries([...metadata].map(([property, type]) => [property, (type as { name?: string }).name]));
    };
    try {
      expect(designTypes(program)).toEqual({ level: 'Number', mode: 'String', inner: 'Inner', name: 'String' });
      expect(designTypes(lone)).toEqual({ level: 'Object', mode: 'Object', inner: 'Inner', name: 'String' });
      // The guard below names exactly the two that differ.
      expect(unsafeMetadata(join(dir, 'dto.ts'), files[join(dir, 'dto.ts')]).map((line) => line.replace(/^.*: /, ''))).toEqual([
        'Level (enum)',
        'Mode (type alias)',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no decorated property or parameter in the repository is typed with an imported enum or literal-union alias', () => {
    const dirs = ['packages', 'apps'].flatMap((top) =>
      readdirSync(join(root, top)).flatMap((name) => ['src', 'test'].map((sub) => join(root, top, name, sub))),
    );
    const files = [...dirs, join(root, 'docs', 'examples'), join(root, 'docs', 'test')]
      .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory())
      .flatMap(sourceFiles);
    const unsafe: string[] = [];
    let decorated = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (!/^\s*@\w+/m.test(text)) continue;
      decorated++;
      unsafe.push(...unsafeMetadata(file, text));
    }
    expect(decorated).toBeGreaterThan(20);
    expect(unsafe).toEqual([]);
  });
});
