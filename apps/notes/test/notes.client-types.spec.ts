import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const STRICT = ['--noEmit', '--strict', '--target', 'ES2022', '--module', 'node16', '--moduleResolution', 'node16', '--types', 'node', '--skipLibCheck'];

/** The diagnostics of tsc --strict on `files` (relative to apps/notes/test), as `file(line): TScode`. */
function compile(...files: string[]): string[] {
  const run = spawnSync(process.execPath, [TSC, ...STRICT, ...files.map((file) => join(__dirname, file))], { cwd: ROOT, encoding: 'utf8' });
  return [...run.stdout.matchAll(/^(\S+)\((\d+),\d+\): error (TS\d+)/gm)].map(([, file, line, code]) => `${file.split('/').pop()}(${line}): ${code}`);
}

// The generated client (test/support/notes-client.ts, written by `mcpkit client`) under
// `strict`: right calls compile, wrong argument names and types do not.
describe('the generated notes client under tsc --strict', () => {
  it('compiles, and every @ts-expect-error line of the usage file is an error', () => {
    expect(compile('support/notes-client.ts', 'types/notes-client.usage.ts')).toEqual([]);
  }, 60_000);

  it('refuses a wrong argument name and a wrong argument type', () => {
    expect(compile('types/notes-client.misuse.ts')).toEqual(['notes-client.misuse.ts(8): TS2561', 'notes-client.misuse.ts(9): TS2322']);
  }, 60_000);
});
