import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * This CLI's version, read from its own package.json (one level above `src/` and `dist/`), so a
 * release bumps one place and `mcpkit --version` never disagrees with what npm installed.
 *
 * @example
 * program.version(CLI_VERSION);
 */
export const CLI_VERSION: string = (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
