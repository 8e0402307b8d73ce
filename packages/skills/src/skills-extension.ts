import { watch as watchFolder, type FSWatcher } from 'node:fs';
import {
  defineResourceTemplate,
  InternalError,
  InvalidParamsError,
  type CacheHint,
  type ExtensionHost,
  type ExtensionMethod,
  type ServerExtension,
} from '@mcpkit/core';
import { unrefTimer } from '@mcpkit/core/transport';
import type { CatalogSnapshot } from './build-catalog';
import { sha256Of } from './digest';
import { page, requireUri } from './page';
import type { ProblemSink } from './problem-sink';
import type { SkillStore } from './store';
import type { Skill, SkillProblem } from './types';
import { canonicalUri, SKILL_SCHEME, skillUri } from './uri';

const EMPTY: CatalogSnapshot = Object.freeze({ skills: [], byUri: new Map(), files: new Map(), dirs: new Map() });

/** The extension's identifier (SEP-2640). */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** What a reload changed, as `SKILL.md` URIs; `listChanged` when clients were told. */
export interface SkillChanges {
  added: string[];
  removed: string[];
  changed: string[];
  listChanged: boolean;
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
  // Every app it was given to (an app per transport, per tenant …): each hears the list change.
  private readonly hosts = new Set<ExtensionHost>();
  private queue: Promise<unknown>;
  private readonly watchers = new Set<() => void>();

  /** Resolves once the skills are read (rejects if the folder cannot be listed); every request waits for it. */
  readonly ready: Promise<void>;
  private current: CatalogSnapshot | undefined;

  /** @internal `skills()` and `loadSkills()` build it. */
  constructor(
    private readonly load: () => Promise<CatalogSnapshot>,
    private readonly store: SkillStore,
    private readonly options: { pageSize: number; cache: CacheHint | undefined },
    private readonly report: ProblemSink,
    readonly dir: string | undefined,
  ) {
    const cache = options.cache ?? { ttlMs: 0, scope: 'private' };
    this.methods = Object.freeze({
      'skills/list': { handler: async (params) => this.list(await this.snapshot(), params.cursor), cache },
      'skills/get': { handler: async (params) => this.get(await this.snapshot(), requireUri(params, 'skills/get')), cache },
      'resources/directory/read': {
        handler: async (params) => this.readDirectory(await this.snapshot(), requireUri(params, 'resources/directory/read'), params.cursor),
        cache,
      },
    });
    this.providers = [
      defineResourceTemplate(
        { uriTemplate: `${SKILL_SCHEME}{+path}`, name: SKILLS_EXTENSION, description: 'Files of the skills this server serves', cache },
        // The template hands `path` percent-decoded (`a%23b.md` as `a#b.md`): it is encoded again
        // segment by segment, as the URIs were made, so a file named `a#b.md` or `50%.md` reads.
        async ({ path }) => this.read(await this.snapshot(), skillUri(path.split('/'))),
      ),
    ];
    const first = load().then((snapshot) => {
      this.current = snapshot;
    });
    // A failed first load does not fail the reloads after it.
    this.queue = first.catch(() => undefined);
    this.ready = first;
    // Reported here; a request answers -32603 while the skills could not be read.
    first.catch((error: Error) => this.problem({ path: dir ?? '.', message: `skills could not be loaded: ${error.message}` }));
  }

  private async snapshot(): Promise<CatalogSnapshot> {
    // A reload that succeeded after a failed first load serves, though `ready` stays rejected.
    if (this.current !== undefined) return this.current;
    try {
      await this.ready;
    } catch {
      throw new InternalError('The skills could not be loaded');
    }
    return this.current!;
  }

  /** The skills served now, sorted by URI: exactly what clients receive. */
  get entries(): readonly Skill[] {
    return this.current?.skills ?? [];
  }

  /** @internal */
  attach(host: ExtensionHost): void {
    this.hosts.add(host);
    this.report.attach(host.logger);
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
    if (this.dir === undefined) throw new Error('watch() needs a dir');
    let timer: NodeJS.Timeout | undefined;
    // When the first change of a burst came: a folder that never goes quiet (a script writing a
    // log in it) still reloads every 10 delays, instead of each change putting the reload off.
    let burst: number | undefined;
    const reload = () => {
      burst = undefined;
      void this.reload().catch((error: Error) => this.problem({ path: this.dir!, message: `reload failed: ${error.message}` }));
    };
    const watcher: FSWatcher = watchFolder(this.dir, { recursive: true }, () => {
      const now = Date.now();
      burst ??= now;
      clearTimeout(timer);
      // A pending reload must not keep a server that is done from exiting.
      timer = unrefTimer(setTimeout(reload, Math.max(0, Math.min(delayMs, burst + 10 * delayMs - now))));
    });
    // Nor the watcher: node:fs's, which every runtime with that module gives an unref.
    // eslint-disable-next-line no-restricted-syntax
    watcher.unref();
    const stop = () => {
      clearTimeout(timer);
      watcher.close();
      this.watchers.delete(stop);
    };
    // An FSWatcher with no 'error' listener throws the error out of the event loop (the
    // process ends): a watch that fails (out of inotify watches …) is reported and stopped instead.
    watcher.on('error', (error: Error) => {
      this.problem({ path: this.dir!, message: `watch stopped: ${error.message}` });
      stop();
    });
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
    // After a failed first load (the folder not there yet …), a reload is the first load.
    const previous =
      this.current ??
      (await this.ready.then(
        () => this.current!,
        () => EMPTY,
      ));
    const next = await this.load();
    this.current = next;
    const key = (snapshot: CatalogSnapshot) => JSON.stringify(snapshot.skills.map((s) => [s.uri, s.frontmatter.name, s.frontmatter.description]));
    const listChanged = key(previous) !== key(next);
    if (listChanged) for (const host of this.hosts) host.bus.publish({ type: 'listChanged', list: 'resources' });
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

  private list(current: CatalogSnapshot, cursor: unknown): object {
    const { items, nextCursor } = page(current.skills, cursor, this.options.pageSize, (skill) => skill.uri);
    return nextCursor === undefined ? { skills: items } : { skills: items, nextCursor };
  }

  private get(current: CatalogSnapshot, uri: string): object {
    const skill = current.byUri.get(canonicalUri(uri) ?? '');
    if (skill === undefined) throw new InvalidParamsError(`No skill is served at ${uri}`);
    return { skill };
  }

  private readDirectory(current: CatalogSnapshot, uri: string, cursor: unknown): object {
    const children = current.dirs.get(canonicalUri(uri) ?? '');
    if (children === undefined) throw new InvalidParamsError(`${uri} is not a directory resource`);
    const { items, nextCursor } = page(children, cursor, this.options.pageSize, (child) => child.uri);
    return nextCursor === undefined ? { resources: items } : { resources: items, nextCursor };
  }

  /** A skill file, checked against its entry: bytes that changed since the load are not served. */
  private async read(current: CatalogSnapshot, uri: string): Promise<object | undefined> {
    const file = current.files.get(uri);
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
      text === undefined ? { uri, mimeType: file.mimeType, blob: Buffer.from(bytes).toString('base64') } : { uri, mimeType: file.mimeType, text };
    return { contents: [contents] };
  }
}
