import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** How long archives of `export_notes` are kept, and how many. */
export interface ExportRetention {
  /** Most archives kept; the oldest go first (`NOTES_MAX_EXPORTS`, default 100). */
  readonly maxExports: number;
  /** An archive older than this is deleted: no task that names it is still readable (the tasks' longest TTL, a day). */
  readonly maxAgeMs: number;
  /** The clock (tests). */
  readonly now?: () => number;
}

/** What `export_notes` names its archives: `notes-<ISO time>.md`. */
export const ARCHIVE_NAME = /^notes-[\dT-]+Z\.md$/;

/**
 * Deletes the archives in `dir` past `retention`: those older than `maxAgeMs`, then the oldest
 * beyond `maxExports`. Only files named as `export_notes` names them are touched. Returns the
 * names deleted.
 */
export function pruneExports(dir: string, retention: ExportRetention): string[] {
  const now = (retention.now ?? Date.now)();
  const archives = readdirSync(dir)
    .filter((name) => ARCHIVE_NAME.test(name))
    .map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs }))
    // Newest first; the name (its time) breaks ties within a millisecond.
    .sort((a, b) => b.at - a.at || (a.name < b.name ? 1 : -1));
  const gone = archives.filter((archive, index) => index >= retention.maxExports || now - archive.at > retention.maxAgeMs).map(({ name }) => name);
  for (const name of gone) rmSync(join(dir, name), { force: true });
  return gone;
}
