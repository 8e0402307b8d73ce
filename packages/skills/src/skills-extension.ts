import { watch as watchFolder, type FSWatcher } from 'node:fs';
import {
  defineResourceTemplate,
  InternalError,
  InvalidParamsError,
  type CacheHint,
  type ExtensionHost,
  type ExtensionMethod,
  type Logger,
  type ServerExtension,
} from '@mcpkit/core';
import { buildCatalog, type CatalogBounds, type CatalogSnapshot } from './build-catalog';
import { sha256Of } from './digest';
import { folderStore, memoryStore, type SkillStore } from './store';
import type { Skill, SkillProblem } from './types';
import { canonicalUri, compareUris, SKILL_SCHEME } from './uri';

/** The extension's identifier (SEP-2640). */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** Options of `loadSkills`. */
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

/** What a reload changed, as `SKILL.md` URIs; `listChanged` when clients were told. */
export interface SkillChanges {
  added: string[];
  removed: string[];
  changed: string[];
  listChanged: boolean;
}

const CURSOR = 'after:';

function page<T>(items: readonly T[], cursor: unknown, size: number, key: (item: T) => string): { items: T[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const after = typeof cursor === 'string' ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
    if (!after.startsWith(CURSOR)) throw new InvalidParamsError('Invalid cursor');
    const found = items.findIndex((item) => compareUris(key(item), after.slice(CURSOR.length)) > 0);
    start = found === -1 ? items.length : found;
  }
  const slice = items.slice(start, start + size);
  const last = slice[slice.length - 1];
  return start + size < items.length && last !== undefined
    ? { items: slice, nextCursor: Buffer.from(CURSOR + key(last)).toString('base64url') }
    : { items: slice };
}

function requireUri(params: Readonly<Record<string, unknown>>, method: string): string {
  if (typeof params.uri !== 'string' || params.uri.length === 0) throw new InvalidParamsError(`${method} needs params.uri, a string`);
  if (params.uri.length > 8192) throw new InvalidParamsError(`${method}: params.uri is longer than 8192 characters`);
  return params.uri;
}

/**
 * The Skills extension for one catalog: `skills/list`, `skills/get`,
 * `resources/directory/read`, and every skill file a `skill://` resource. Give it to
 * `createApp({ extensions })`; `reload()` (or `watch()`) picks up changes and tells clients.
 */
export class SkillsExtension implements ServerExtension {
  readonly id = SKILLS_EXTENSION;
  readonly settings = Object.freeze({ directoryRead: true });
  readonly listChanged = ['resources'] as const;
  readonly methods: Readonly<Record<string, ExtensionMethod>>;
  readonly providers;
  private host: ExtensionHost | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly watchers = new Set<() => void>();

  /** @internal `loadSkills` builds it. */
  constructor(
    private current: CatalogSnapshot,
    private readonly load: () => Promise<CatalogSnapshot>,
    private readonly store: SkillStore,
    private readonly options: SkillsOptions & { pageSize: number },
    private readonly report: ProblemSink,
    readonly dir: string | undefined,
  ) {
    const cache = options.cache ?? { ttlMs: 0, scope: 'private' };
    this.methods = Object.freeze({
      'skills/list': { handler: (params) => this.list(params.cursor), cache },
      'skills/get': { handler: (params) => this.get(requireUri(params, 'skills/get')), cache },
      'resources/directory/read': { handler: (params) => this.readDirectory(requireUri(params, 'resources/directory/read'), params.cursor), cache },
    });
    this.providers = [
      defineResourceTemplate(
        { uriTemplate: `${SKILL_SCHEME}{+path}`, name: SKILLS_EXTENSION, description: 'Files of the skills this server serves', cache },
        ({ path }) => this.read(`${SKILL_SCHEME}${path}`),
      ),
    ];
  }

  /** The skills served now, sorted by URI: exactly what clients receive. */
  get entries(): readonly Skill[] {
    return this.current.skills;
  }

  /** @internal */
  attach(host: ExtensionHost): void {
    this.host = host;
    this.report.logger = host.logger;
  }

  /**
   * Reads the skills again and swaps them in at once (on failure the old ones keep serving);
   * when a skill came or went, or a name or description changed, clients hear
   * `notifications/resources/list_changed` (as the official SDK sends). Calls run one at a time.
   */
  reload(): Promise<SkillChanges> {
    const run = this.queue.then(() => this.reloadNow());
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Reloads whenever something under `dir` changes (debounced by `delayMs`, default 100) until the
   * returned function is called. `mcpkit dev` does not restart for a skill edit: this is how a
   * running server tells its clients.
   */
  watch(delayMs = 100): () => void {
    if (this.dir === undefined) throw new Error('watch() needs loadSkills({ dir })');
    let timer: NodeJS.Timeout | undefined;
    const watcher: FSWatcher = watchFolder(this.dir, { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => void this.reload().catch((error: Error) => this.problem({ path: this.dir!, message: `reload failed: ${error.message}` })),
        delayMs,
      );
      // A pending reload must not keep a server that is done from exiting.
      timer.unref();
    });
    watcher.unref();
    const stop = () => {
      clearTimeout(timer);
      watcher.close();
      this.watchers.delete(stop);
    };
    this.watchers.add(stop);
    return stop;
  }

  /** How many watches are running (`watch()`, `loadSkills({ watch })`). */
  get watching(): number {
    return this.watchers.size;
  }

  /** Stops every watch. */
  close(): void {
    for (const stop of [...this.watchers]) stop();
  }

  private async reloadNow(): Promise<SkillChanges> {
    const previous = this.current;
    const next = await this.load();
    this.current = next;
    const key = (snapshot: CatalogSnapshot) => JSON.stringify(snapshot.skills.map((s) => [s.uri, s.frontmatter.name, s.frontmatter.description]));
    const listChanged = key(previous) !== key(next);
    if (listChanged) this.host?.bus.publish({ type: 'listChanged', list: 'resources' });
    const same = (uri: string) => JSON.stringify(previous.byUri.get(uri)) === JSON.stringify(next.byUri.get(uri));
    return {
      added: [...next.byUri.keys()].filter((uri) => !previous.byUri.has(uri)),
      removed: [...previous.byUri.keys()].filter((uri) => !next.byUri.has(uri)),
      changed: [...next.byUri.keys()].filter((uri) => previous.byUri.has(uri) && !same(uri)),
      listChanged,
    };
  }

  private problem(problem: SkillProblem): void {
    this.report.send(problem);
  }

  private list(cursor: unknown): object {
    const { items, nextCursor } = page(this.current.skills, cursor, this.options.pageSize, (skill) => skill.uri);
    return nextCursor === undefined ? { skills: items } : { skills: items, nextCursor };
  }

  private get(uri: string): object {
    const skill = this.current.byUri.get(canonicalUri(uri) ?? '');
    if (skill === undefined) throw new InvalidParamsError(`No skill is served at ${uri}`);
    return { skill };
  }

  private readDirectory(uri: string, cursor: unknown): object {
    const children = this.current.dirs.get(canonicalUri(uri) ?? '');
    if (children === undefined) throw new InvalidParamsError(`${uri} is not a directory resource`);
    const { items, nextCursor } = page(children, cursor, this.options.pageSize, (child) => child.uri);
    return nextCursor === undefined ? { resources: items } : { resources: items, nextCursor };
  }

  /** A skill file, checked against its entry: bytes that changed since the load are not served. */
  private async read(uri: string): Promise<object | undefined> {
    const canonical = canonicalUri(uri);
    const file = canonical === undefined ? undefined : this.current.files.get(canonical);
    if (file === undefined) return undefined;
    let bytes: Uint8Array;
    try {
      bytes = await this.store.read(file.path, file.size);
    } catch (error) {
      this.problem({ path: file.path, message: `could not be read: ${(error as Error).message}` });
      throw new InternalError(`${uri} changed since the skills were loaded; they reload on the next change`);
    }
    if (bytes.byteLength !== file.size || sha256Of(bytes) !== file.digest)
      throw new InternalError(`${uri} changed since the skills were loaded; they reload on the next change`);
    let text: string | undefined;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      text = undefined;
    }
    const contents =
      text === undefined
        ? { uri: canonical, mimeType: file.mimeType, blob: Buffer.from(bytes).toString('base64') }
        : { uri: canonical, mimeType: file.mimeType, text };
    return { contents: [contents] };
  }
}

/** Where problems go: `onProblem`, else the app's logger once attached, else a process warning. */
class ProblemSink {
  logger: Logger | undefined;
  constructor(private readonly onProblem: SkillsOptions['onProblem']) {}
  send(problem: SkillProblem): void {
    if (this.onProblem) this.onProblem(problem);
    else if (this.logger) this.logger.warn({ skill: problem.path }, problem.message);
    else process.emitWarning(`${problem.path}: ${problem.message}`, 'SkillWarning');
  }
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`loadSkills: ${name} must be a positive integer (got ${value})`);
  return value;
}

/**
 * Loads the skills of a folder (and/or declared in code) for `createApp({ extensions })`.
 * Every file is read and hashed once here; reads are checked against those digests.
 *
 * @throws when the folder cannot be listed, or an option is out of range. A skill that breaks a
 *   rule is skipped and reported (`onProblem`), not thrown.
 * @example
 * const skills = await loadSkills({ dir: join(__dirname, '../skills') });
 * const app = createApp({ name: 'notes', version: '1.0.0', providers: [NotesTools], extensions: [skills] });
 */
export async function loadSkills(options: SkillsOptions): Promise<SkillsExtension> {
  if (options.dir === undefined && options.files === undefined) throw new TypeError('loadSkills needs dir, files, or both');
  const bounds: CatalogBounds = {
    prefix: options.prefix === undefined ? [] : options.prefix.split('/').filter((segment) => segment !== ''),
    maxFilesPerSkill: positive('maxFilesPerSkill', options.maxFilesPerSkill, 512),
    maxBytesPerSkill: positive('maxBytesPerSkill', options.maxBytesPerSkill, 16 * 1024 * 1024),
    maxEntries: positive('maxEntries', options.maxEntries, 10_000),
  };
  if (bounds.prefix.some((segment) => segment === '.' || segment === '..')) throw new RangeError('loadSkills: prefix must not hold . or ..');
  const store = combine(options.dir === undefined ? undefined : folderStore(options.dir), options.files === undefined ? undefined : memoryStore(options.files));
  const sink = new ProblemSink(options.onProblem);
  const load = () => buildCatalog(store, bounds, (problem) => sink.send(problem));
  const pageSize = positive('pageSize', options.pageSize, 100);
  const extension = new SkillsExtension(await load(), load, store, { ...options, pageSize }, sink, options.dir);
  if (options.dir !== undefined && (options.watch ?? process.env.MCPKIT_DEV_CHILD === '1')) extension.watch();
  return extension;
}

/** The folder and the in-code skills as one store; the folder wins a path both have. */
function combine(folder: SkillStore | undefined, memory: SkillStore | undefined): SkillStore {
  if (folder === undefined) return memory!;
  if (memory === undefined) return folder;
  return {
    async list(dir) {
      const own = await folder.list(dir).catch(() => []);
      const names = new Set(own.map((entry) => entry.name));
      return [...own, ...(await memory.list(dir)).filter((entry) => !names.has(entry.name))];
    },
    read: (path, maxBytes) => folder.read(path, maxBytes).catch(() => memory.read(path, maxBytes)),
  };
}
