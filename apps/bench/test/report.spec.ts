import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withTables } from '../src/render';

describe('docs/benchmarks.md', () => {
  it('shows exactly the tables generated from the committed benchmarks.json', () => {
    const docs = join(__dirname, '..', '..', '..', 'docs');
    const page = readFileSync(join(docs, 'benchmarks.md'), 'utf8');
    const results = JSON.parse(readFileSync(join(docs, 'benchmarks.json'), 'utf8')) as Record<string, unknown>;
    expect(withTables(page, results)).toBe(page);
  });
});
