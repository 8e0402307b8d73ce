import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp, precompiledValidatorsSource } from '@mcpkit/core';

// What docs/validation.md and docs/runtimes-workers.md tell a user to type and write, held to what
// the CLI writes and to how tsc and a Worker load it. The recipe itself was run from packed
// tarballs under workerd; these keep its pieces from drifting apart again.
const page = (name: string) => readFileSync(join(__dirname, '..', name), 'utf8');
const blocks = (text: string, lang: string) => [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]);
const outs = (text: string) => [...text.matchAll(/build-validators [^`\n]*--out (\S+)/g)].map((match) => match[1].replace(/`$/, ''));

describe('the build-validators recipes', () => {
  const validation = page('validation.md');
  const workers = page('runtimes-workers.md');

  it('write the module to dist/, where the compiled server requires it (a module in src/ is not copied there)', () => {
    const all = [...outs(validation), ...outs(workers)];
    expect(all.length).toBeGreaterThan(1);
    for (const out of all) expect(out).toBe('dist/validators.generated.js');
  });

  it("give tsc the declaration the CLI writes, so that a clean build's first tsc passes", () => {
    const declared = blocks(validation, 'ts').find((block) => block.startsWith('// src/validators.generated.d.ts'));
    const { declaration } = precompiledValidatorsSource(createApp({ name: 'none', version: '1', providers: [], logger: undefined }), 'x');
    expect(declared?.replace(/^\/\/.*\n/, '')).toBe(declaration);
  });

  it("make the Worker's entry an ES module with a default export, bundled to the file wrangler deploys as it is", () => {
    const entry = blocks(workers, 'js').find((block) => block.startsWith('// worker.mjs'));
    expect(entry).toMatch(/^export default /m);
    const bundle = blocks(workers, 'js').find((block) => block.startsWith('// bundle.mjs'));
    expect(bundle).toContain("entryPoints: ['worker.mjs']");
    expect(bundle).toContain("format: 'esm'");
    const outfile = /outfile: '([^']+)'/.exec(bundle ?? '')?.[1];
    const toml = blocks(workers, 'toml').find((block) => block.includes('wrangler.toml')) ?? '';
    expect(toml).toContain(`main = "${outfile}"`);
    expect(toml).toContain('no_bundle = true');
    expect(toml).toContain('"nodejs_compat"');
  });
});
