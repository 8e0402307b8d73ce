import type { CacheHint } from '@mcpkit/core';
import { buildCatalog, type CatalogBounds } from './build-catalog';
import { ProblemSink } from './problem-sink';
import { SkillsExtension } from './skills-extension';
import { folderStore, memoryStore, type SkillStore } from './store';
import type { SkillProblem } from './types';

/** Options of `skills()` and `loadSkills()`. */
export interface SkillsOptions {
  /** A folder of skill folders, each with a `SKILL.md` (nested folders: `acme/billing/refunds`). */
  dir?: string;
  /** Skills declared in code, by path: `{ 'tidy-notes/SKILL.md': '---\nname: tidy-notes…' }`. */
  files?: Readonly<Record<string, string | Uint8Array>>;
  /** Organisational prefix: `'acme'` serves `skill://acme/<skill>/…` (default: none). */
  prefix?: string;
  /** Entries per `skills/list` and directory page (default 100). */
  pageSize?: number;
  /** Most files one skill may have (default 512, the extension's limit). */
  maxFilesPerSkill?: number;
  /** Most bytes one skill's files may hold together (default 16 MiB, the extension's limit). */
  maxBytesPerSkill?: number;
  /** Most files and folders the folder may hold, hidden ones aside (default 10 000). */
  maxEntries?: number;
  /** 2026-07-28 `ttlMs` / `cacheScope` of the skills methods and skill files (default `ttlMs` 0, `private`). */
  cache?: CacheHint;
  /**
   * Reload when something under `dir` changes, and tell clients (`watch()`). Default: on under
   * `mcpkit dev` (which restarts the server for a code change, not for a skill edit), else off.
   */
  watch?: boolean;
  /** Where problems go (a skipped skill …); default: the app's logger, at warn. */
  onProblem?: (problem: SkillProblem) => void;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`skills: ${name} must be a positive integer (got ${value})`);
  return value;
}

/**
 * The Skills extension over a folder (and/or skills declared in code), for
 * `createApp({ extensions })`, at once: the skills are read in the background and every request
 * waits for them (`ready`). A folder that cannot be listed is reported and answers `-32603`;
 * `loadSkills` reports it at start-up instead.
 *
 * @throws when neither `dir` nor `files` is given, or an option is out of range.
 * @example
 * const app = createApp({ name: 'notes', version: '1.0.0', providers: [NotesTools], extensions: [skills({ dir: join(__dirname, '../skills') })] });
 */
export function skills(options: SkillsOptions): SkillsExtension {
  if (options.dir === undefined && options.files === undefined) throw new TypeError('skills needs dir, files, or both');
  const bounds: CatalogBounds = {
    prefix: options.prefix === undefined ? [] : options.prefix.split('/').filter((segment) => segment !== ''),
    maxFilesPerSkill: positive('maxFilesPerSkill', options.maxFilesPerSkill, 512),
    maxBytesPerSkill: positive('maxBytesPerSkill', options.maxBytesPerSkill, 16 * 1024 * 1024),
    maxEntries: positive('maxEntries', options.maxEntries, 10_000),
  };
  if (bounds.prefix.some((segment) => segment === '.' || segment === '..')) throw new RangeError('skills: prefix must not hold . or ..');
  const store = combine(options.dir === undefined ? undefined : folderStore(options.dir), options.files === undefined ? undefined : memoryStore(options.files));
  const sink = new ProblemSink(options.onProblem);
  const pageSize = positive('pageSize', options.pageSize, 100);
  const extension = new SkillsExtension(
    () => buildCatalog(store, bounds, (problem) => sink.send(problem)),
    store,
    { pageSize, cache: options.cache },
    sink,
    options.dir,
  );
  if (options.dir !== undefined && (options.watch ?? process.env.MCPKIT_DEV_CHILD === '1'))
    void extension.ready.then(
      () => {
        // watch() throws when the folder went away since the load, or the system has no watch left.
        try {
          extension.watch();
        } catch (error) {
          sink.send({ path: options.dir!, message: `could not watch: ${(error as Error).message}` });
        }
      },
      () => undefined,
    );
  return extension;
}

/**
 * `skills(options)`, once its skills are read: a folder that cannot be listed fails here, at
 * start-up. Every file is read and hashed once; reads are checked against those digests.
 *
 * @example
 * const notesSkills = await loadSkills({ dir: join(__dirname, '../skills') });
 * const app = createApp({ name: 'notes', version: '1.0.0', providers: [NotesTools], extensions: [notesSkills] });
 */
export async function loadSkills(options: SkillsOptions): Promise<SkillsExtension> {
  const extension = skills(options);
  await extension.ready;
  return extension;
}

/** The folder and the in-code skills as one store; the folder wins a path both have. */
function combine(folder: SkillStore | undefined, memory: SkillStore | undefined): SkillStore {
  if (folder === undefined) return memory!;
  if (memory === undefined) return folder;
  return {
    async list(dir) {
      // A folder only declared in code is not on disk (ENOENT); any other failure, and the root
      // missing, are the folder's, and said as such (they were taken for an empty folder).
      const own = await folder.list(dir).catch((error: NodeJS.ErrnoException) => {
        if (dir === '' || error.code !== 'ENOENT') throw error;
        return [];
      });
      const names = new Set(own.map((entry) => entry.name));
      return [...own, ...(await memory.list(dir)).filter((entry) => !names.has(entry.name))];
    },
    // Only a file not on disk is the code's; a file on disk that fails (a symlink swapped in, over
    // the bound …) fails with its own reason, not "no such file" from the code's files.
    read: (path, maxBytes) =>
      folder.read(path, maxBytes).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        return memory.read(path, maxBytes);
      }),
  };
}
