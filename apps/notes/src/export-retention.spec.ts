import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pruneExports } from './export-retention';

describe('pruneExports', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'exports-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** An archive as export_notes names it, last written `at` (epoch ms). */
  function archive(name: string, at: number): void {
    writeFileSync(join(dir, name), '# Notes export\n');
    utimesSync(join(dir, name), at / 1000, at / 1000);
  }

  it('deletes archives older than maxAgeMs on its clock, then the oldest past maxExports, and nothing else', () => {
    const now = 1_800_000_000_000;
    archive('notes-2027-01-01T00-00-00-000Z.md', now - 86_400_001);
    archive('notes-2027-01-02T00-00-00-000Z.md', now - 3_000);
    archive('notes-2027-01-02T00-00-01-000Z.md', now - 2_000);
    archive('notes-2027-01-02T00-00-02-000Z.md', now - 1_000);
    writeFileSync(join(dir, 'notes.md'), 'not an archive');
    const gone = pruneExports(dir, { maxExports: 2, maxAgeMs: 86_400_000, now: () => now });
    expect(gone.sort()).toEqual(['notes-2027-01-01T00-00-00-000Z.md', 'notes-2027-01-02T00-00-00-000Z.md']);
    expect(readdirSync(dir).sort()).toEqual(['notes-2027-01-02T00-00-01-000Z.md', 'notes-2027-01-02T00-00-02-000Z.md', 'notes.md']);
  });
});
