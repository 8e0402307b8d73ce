import { sha256Of as sha256 } from './digest';
import { readFrontmatter } from './frontmatter';
import { mimeTypeOf } from './mime';
import { TooLargeError, type SkillStore, type StoreEntry } from './store';
import type { DirectoryChild, Skill, SkillProblem } from './types';
import { compareUris, skillUri } from './uri';

/** A file the catalog serves: where it is in the store, and what its entry promised. */
export interface CatalogFile {
  path: string;
  size: number;
  digest: string;
  mimeType: string;
}

/** One loaded state of the skills: swapped whole by a reload. */
export interface CatalogSnapshot {
  readonly skills: readonly Skill[];
  readonly byUri: ReadonlyMap<string, Skill>;
  readonly files: ReadonlyMap<string, CatalogFile>;
  readonly dirs: ReadonlyMap<string, readonly DirectoryChild[]>;
}

/** The bounds of a load: every file is read once, so they bound its memory and time too. */
export interface CatalogBounds {
  prefix: readonly string[];
  maxFilesPerSkill: number;
  maxBytesPerSkill: number;
  maxEntries: number;
}

interface TreeEntry {
  path: string;
  /** `unreadable`: a folder that could not be listed (no permission, gone since, a path too long). */
  kind: StoreEntry['kind'] | 'unreadable';
  problem?: string;
}

const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const dirname = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
/** The folders holding `path`, outermost first: `a`, `a/b` for `a/b/c` (linear where a scan of every skill was quadratic). */
function ancestors(path: string): string[] {
  const found: string[] = [];
  for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) found.push(path.slice(0, slash));
  return found;
}

/**
 * Every entry under the root, depth first and sorted; hidden names (`.git`, `.DS_Store`) left out.
 * Only the root must list: a folder below that cannot is marked `unreadable`, for its skill alone
 * to be skipped.
 */
async function walk(store: SkillStore, maxEntries: number): Promise<TreeEntry[]> {
  const tree: TreeEntry[] = [];
  const visit = async (dir: string, folder?: TreeEntry): Promise<void> => {
    let listed: StoreEntry[];
    try {
      listed = await store.list(dir);
    } catch (error) {
      if (folder === undefined) throw error;
      folder.kind = 'unreadable';
      folder.problem = (error as Error).message;
      return;
    }
    const entries = listed.filter((entry) => !entry.name.startsWith('.'));
    for (const entry of entries.sort((a, b) => compareUris(a.name, b.name))) {
      if (tree.length >= maxEntries) throw new Error(`the skills folder holds more than ${maxEntries} entries (maxEntries)`);
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      const child: TreeEntry = { path, kind: entry.kind };
      tree.push(child);
      if (entry.kind === 'directory') await visit(path, child);
    }
  };
  await visit('');
  return tree;
}

/**
 * Reads every skill of the store (a folder holding `SKILL.md`, at any depth but the root):
 * hashes each file, reads each frontmatter. A skill that breaks a rule (a symlink inside, a bad
 * frontmatter, over a bound) is skipped and reported; the others are served.
 */
export async function buildCatalog(store: SkillStore, bounds: CatalogBounds, report: (problem: SkillProblem) => void): Promise<CatalogSnapshot> {
  const tree = await walk(store, bounds.maxEntries);
  const uriOf = (path: string) => skillUri([...bounds.prefix, ...path.split('/')]);
  const skillDirs = tree.filter((entry) => entry.kind === 'file' && basename(entry.path) === 'SKILL.md').map((entry) => dirname(entry.path));
  // Each skill's entries, in tree order.
  const insideOf = new Map<string, TreeEntry[]>(skillDirs.map((dir) => [dir, []]));
  for (const entry of tree) for (const dir of ancestors(entry.path)) insideOf.get(dir)?.push(entry);
  // A folder outside every skill that could not be listed may have hidden skills: said, not fatal.
  for (const entry of tree)
    if (entry.kind === 'unreadable' && !ancestors(entry.path).some((dir) => insideOf.has(dir)))
      report({ path: entry.path, message: `could not be listed: ${entry.problem} (skipped)` });
  const skills: Skill[] = [];
  const files = new Map<string, CatalogFile>();
  const served = new Set<string>();
  for (const dir of skillDirs) {
    if (dir === '') {
      report({ path: 'SKILL.md', message: 'a SKILL.md at the root has no skill folder (skipped)' });
      continue;
    }
    const built = await buildSkill(store, dir, insideOf.get(dir)!, bounds, uriOf).catch((error: Error) => {
      report({ path: dir, message: `${error.message} (skill skipped)` });
      return undefined;
    });
    if (built === undefined) continue;
    skills.push(built.skill);
    served.add(dir);
    for (const [uri, file] of built.files) files.set(uri, file);
  }
  skills.sort((a, b) => compareUris(a.uri, b.uri));
  return Object.freeze({ skills, byUri: new Map(skills.map((skill) => [skill.uri, skill])), files, dirs: directories(tree, served, files, uriOf) });
}

async function buildSkill(store: SkillStore, dir: string, inside: readonly TreeEntry[], bounds: CatalogBounds, uriOf: (path: string) => string) {
  const special = inside.find((entry) => entry.kind === 'unsupported');
  if (special !== undefined) throw new Error(`${special.path} is a symlink or special file, which is not followed; copy the file instead`);
  const unreadable = inside.find((entry) => entry.kind === 'unreadable');
  if (unreadable !== undefined) throw new Error(`${unreadable.path} could not be listed: ${unreadable.problem}`);
  const own = inside.filter((entry) => entry.kind === 'file');
  if (own.length > bounds.maxFilesPerSkill) throw new Error(`${own.length} files, more than ${bounds.maxFilesPerSkill} (maxFilesPerSkill)`);
  const files = new Map<string, CatalogFile>();
  let budget = bounds.maxBytesPerSkill;
  let manifest: Uint8Array | undefined;
  for (const entry of own) {
    // Only a file over the budget is blamed on maxBytesPerSkill; another failure says what it is.
    const bytes = await store.read(entry.path, budget).catch((error: Error) => {
      if (!(error instanceof TooLargeError)) throw new Error(`${entry.path} could not be read: ${error.message}`);
      throw new Error(`${error.message} (maxBytesPerSkill ${bounds.maxBytesPerSkill} over the skill's files)`);
    });
    budget -= bytes.byteLength;
    if (entry.path === `${dir}/SKILL.md`) manifest = bytes;
    files.set(uriOf(entry.path), { path: entry.path, size: bytes.byteLength, digest: sha256(bytes), mimeType: mimeTypeOf(basename(entry.path)) });
  }
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(manifest);
  const frontmatter = readFrontmatter(text, basename(dir));
  const resources = [...files].map(([uri, file]) => ({ uri, digest: file.digest, size: file.size })).sort((a, b) => compareUris(a.uri, b.uri));
  return { skill: { uri: uriOf(`${dir}/SKILL.md`), frontmatter, resources }, files };
}

/** The direct children of every directory of a served skill, its root included. */
function directories(tree: readonly TreeEntry[], served: ReadonlySet<string>, files: ReadonlyMap<string, CatalogFile>, uriOf: (path: string) => string) {
  const inServed = (path: string) => served.has(path) || ancestors(path).some((dir) => served.has(dir));
  const dirs = new Map<string, DirectoryChild[]>();
  for (const entry of tree) if (entry.kind === 'directory' && inServed(entry.path)) dirs.set(uriOf(entry.path), []);
  for (const entry of tree) {
    const parent = dirs.get(uriOf(dirname(entry.path)));
    if (parent === undefined || dirname(entry.path) === '') continue;
    const uri = uriOf(entry.path);
    const file = files.get(uri);
    if (entry.kind === 'directory') parent.push({ uri, name: basename(entry.path), mimeType: 'inode/directory' });
    else if (file !== undefined) parent.push({ uri, name: basename(entry.path), mimeType: file.mimeType, size: file.size });
  }
  for (const children of dirs.values()) children.sort((a, b) => compareUris(a.uri, b.uri));
  return dirs;
}
