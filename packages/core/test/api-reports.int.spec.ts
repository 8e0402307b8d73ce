import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// Plain JS so it runs without a build; see scripts/guard/README.md. Reads each package's dist:
// `pnpm test` builds first; alone, run `pnpm build` (or `pnpm --filter <pkg>... build`) before.
import * as api from '../../../scripts/guard/api-report.js';

const ROOT = join(__dirname, '..', '..', '..');

describe('API reports (api/<package>.api.md)', () => {
  const packages = api.packagesOf(ROOT);
  // One TypeScript program per package (the costly part), shared by both checks of it.
  const reports = new Map<string, string>();
  const reportOf = (pkg: (typeof packages)[number]): string => {
    let report = reports.get(pkg.name);
    if (report === undefined) reports.set(pkg.name, (report = api.reportFor(pkg)));
    return report;
  };

  it.each(packages.map((pkg) => [pkg.name, pkg] as const))('%s: the built surface is the committed report', (name, pkg) => {
    const path = join(ROOT, 'api', `${pkg.short}.api.md`);
    const committed = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const built = reportOf(pkg);
    if (built !== committed) {
      throw new Error(
        `${api.diffOf(committed, built, `api/${pkg.short}.api.md`)}\nThe public surface of ${name} differs from api/${pkg.short}.api.md (diff above: - committed, + built).\nIf the change is intended, run \`${api.COMMAND}\` and commit api/.`,
      );
    }
  });

  // A user who meets a type in a signature can import it (issue #27): export it, or keep it out of the signature.
  it.each(packages.map((pkg) => [pkg.name, pkg] as const))('%s: names no type that no entry point exports', (_name, pkg) => {
    expect(reportOf(pkg).match(/Referenced by the above but exported by no entry point: .*/g) ?? []).toEqual([]);
  });

  it('has no report for a package that is gone', () => {
    expect(api.orphansOf(ROOT)).toEqual([]);
  });
});

describe('the api-report tool', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'api-report-'));
    write(
      'packages/demo/package.json',
      JSON.stringify({
        name: '@mcpkit/demo',
        exports: {
          '.': { types: './dist/index.d.ts', default: './dist/index.js' },
          './extra': { types: './dist/extra.d.ts' },
          './package.json': './package.json',
        },
      }),
    );
    write(
      'packages/demo/dist/widget.d.ts',
      [
        'interface Hidden { size: number }',
        '/** A widget. */',
        'export declare class Widget {',
        '    private secret;',
        '    readonly name: string;',
        '    /** @internal */',
        '    poke(): void;',
        '    protected grow(by: number): Hidden;',
        '    constructor(name: string);',
        '}',
        'export declare function make(name: string): Widget;',
        'export declare function make(size: number): Widget;',
        'export declare const LIMIT = 3;',
        'export declare enum Mode { A = 0, B = 1 }',
        'export {};',
      ].join('\n'),
    );
    write('packages/demo/dist/index.d.ts', "export { Widget as Gadget, make, LIMIT } from './widget';\nexport type { Options } from './options';\n");
    write('packages/demo/dist/options.d.ts', '/** @deprecated use make */\nexport interface Options { verbose?: boolean }\n');
    write('packages/demo/dist/extra.d.ts', "export { Mode } from './widget';\n");
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('lists each entry point with its exports, kinds and declarations, without private members or comments', () => {
    const [pkg] = api.packagesOf(root);
    const text = api.reportFor(pkg);
    expect(text).toContain('## `@mcpkit/demo` (dist/index.d.ts): 4 exports');
    expect(text).toContain('## `@mcpkit/demo/extra` (dist/extra.d.ts): 1 exports');
    expect(text).toContain(
      '// Gadget: class, declared as Widget\nclass Widget {\n    readonly name: string;\n    /** @internal */ poke(): void;\n    protected grow(by: number): Hidden;\n    constructor(name: string);\n}',
    );
    expect(text).not.toContain('secret');
    expect(text).not.toContain('A widget.');
    expect(text).toContain('// make: function\nfunction make(name: string): Widget;\nfunction make(size: number): Widget;');
    expect(text).toContain('// LIMIT: const\nconst LIMIT = 3;');
    expect(text).toContain('// Options: interface @deprecated');
    expect(text).toContain('// Mode: enum');
    expect(text).toContain('Referenced by the above but exported by no entry point: Hidden.');
    expect(text).not.toContain('package.json');
  });

  it('reports a changed surface with a diff, a missing report, and a report whose package is gone', () => {
    expect(api.check(root).changed.map((change: { path: string }) => change.path)).toEqual(['api/demo.api.md']);
    expect(api.write(root)).toEqual(['api/demo.api.md']);
    expect(api.check(root)).toEqual({ changed: [], orphans: [] });

    write('packages/demo/dist/options.d.ts', '/** @deprecated use make */\nexport interface Options { verbose?: boolean; quiet?: boolean }\n');
    const [change] = api.check(root).changed;
    expect(change.diff).toContain('+    quiet?: boolean;');
    expect(change.diff).toContain('--- api/demo.api.md (committed)');

    write('api/gone.api.md', 'old\n');
    expect(api.check(root).orphans).toEqual(['api/gone.api.md']);
  });

  it('lists the errors a consumer without skipLibCheck would get from the declarations', () => {
    write('packages/demo/dist/options.d.ts', 'export interface Options { settings: Stripped }\n');
    const [pkg] = api.packagesOf(root);
    expect(api.reportFor(pkg)).toContain(
      "## Declaration errors (what a consumer without skipLibCheck sees)\n\n- dist/options.d.ts:1: Cannot find name 'Stripped'.\n",
    );
  });

  it('says which package to build when its declarations are missing', () => {
    rmSync(join(root, 'packages/demo/dist/extra.d.ts'));
    const [pkg] = api.packagesOf(root);
    expect(() => api.reportFor(pkg)).toThrow('@mcpkit/demo: no built declarations for @mcpkit/demo/extra; run `pnpm --filter @mcpkit/demo... build`');
  });
});
