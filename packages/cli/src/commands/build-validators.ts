import { writeFileSync } from 'node:fs';
import { precompiledValidatorsSource } from '@mcpkit/core';
import { CliError, EXIT } from '../cli-error';
import { loadApp, resolveEntry } from '../load-app';
import { out } from '../output';

/** Options of `mcpkit build-validators`. */
export interface BuildValidatorsOptions {
  /** The module to write (a `.js` file, CommonJS); its `.d.ts` goes beside it. */
  out: string;
  export?: string;
}

/**
 * `mcpkit build-validators [entry] --out <file>`: ajv's standalone code of every schema the app
 * validates with, for `createApp({ validators })`: no code generated at run time (Workers), no
 * compile on a tool's first call.
 */
export function buildValidators(entry: string | undefined, options: BuildValidatorsOptions): number {
  if (!/\.c?js$/.test(options.out))
    throw new CliError(
      `--out must name a .js or .cjs file (the module is CommonJS): ${options.out}`,
      'mcpkit build-validators dist/app.js --out dist/validators.generated.js',
    );
  const app = loadApp(resolveEntry(entry), { export: options.export });
  const command = ['mcpkit build-validators', entry, options.export ? `--export ${options.export}` : undefined, `--out ${options.out}`]
    .filter(Boolean)
    .join(' ');
  const { source, declaration } = precompiledValidatorsSource(app, command);
  writeFileSync(options.out, source);
  writeFileSync(
    options.out.replace(/\.c?js$/, (ext) => (ext === '.cjs' ? '.d.cts' : '.d.ts')),
    declaration,
  );
  out(`${options.out}: ${(source.match(/\bexports(?:\.|\[")s[0-9a-f]{16}/g) ?? []).length} validators`);
  return EXIT.OK;
}
