import { writeFileSync } from 'node:fs';
import { CliError, EXIT } from '../cli-error';
import { generateClient } from '../contract/client-gen';
import { MANIFEST_ERAS, type ManifestEraName } from '../contract/manifest';
import { loadManifest } from '../contract/read-manifest';
import { out } from '../output';

/** Options of `mcpkit client`. */
export interface ClientCommandOptions {
  /** Write the TypeScript to this file (default: stdout). */
  out?: string;
  /** The era whose schemas are typed. */
  era?: string;
  export?: string;
}

/** `mcpkit client [entry] [--out file.ts]`: a typed client of the app, as TypeScript. */
export async function client(entry: string | undefined, options: ClientCommandOptions): Promise<number> {
  if (options.era !== undefined && !(MANIFEST_ERAS as readonly string[]).includes(options.era))
    throw new CliError(`No era ${options.era}`, `Give one of ${MANIFEST_ERAS.join(', ')}.`, EXIT.USAGE);
  const source = await generateClient(loadManifest(entry, { export: options.export }).manifest, { era: options.era as ManifestEraName | undefined });
  if (options.out) writeFileSync(options.out, source);
  else out(source.slice(0, -1));
  return EXIT.OK;
}
