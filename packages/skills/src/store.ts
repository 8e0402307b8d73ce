import { constants, promises as fs } from 'node:fs';
import { join, sep } from 'node:path';

/** One child of a folder: a symlink or any other special file is `unsupported` and never followed. */
export interface StoreEntry {
  name: string;
  kind: 'file' | 'directory' | 'unsupported';
}

/** Where skills are read from: two operations over relative, `/`-separated paths (`''` is the root). */
export interface SkillStore {
  list(dir: string): Promise<StoreEntry[]>;
  /** The file's bytes; throws past `maxBytes` rather than reading more. */
  read(path: string, maxBytes: number): Promise<Uint8Array>;
}

/** A file over the bytes a read may take: the caller's bound, not a fault of the file. */
export class TooLargeError extends Error {}

function segmentsOf(path: string): string[] {
  const segments = path === '' ? [] : path.split('/');
  // Paths come from the walk, never from a client; this holds even if that changes.
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment.includes('\\') || segment.includes('\0')))
    throw new Error(`refused path ${JSON.stringify(path)}: it could leave the skills folder`);
  return segments;
}

/**
 * A folder on disk. Symlinks are reported, not followed; a read opens the file without following
 * a final symlink (`O_NOFOLLOW`) nor waiting on a FIFO (`O_NONBLOCK`), refuses anything but a regular file, checks that the folder it
 * sits in is still inside the root (a folder swapped for a symlink after the walk), and reads at
 * most `maxBytes`.
 */
export function folderStore(root: string): SkillStore {
  let realRoot: Promise<string> | undefined;
  return {
    async list(dir) {
      const entries = await fs.readdir(join(root, ...segmentsOf(dir)), { withFileTypes: true });
      return entries.map((entry) => ({ name: entry.name, kind: entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : 'unsupported' }));
    },
    async read(path, maxBytes) {
      const segments = segmentsOf(path);
      const parent = await fs.realpath(join(root, ...segments.slice(0, -1)));
      const base = await (realRoot ??= fs.realpath(root));
      if (parent !== base && !parent.startsWith(base + sep)) throw new Error(`${path} is outside the skills folder`);
      // O_NONBLOCK: a FIFO swapped in after the walk would otherwise block the open (and a libuv
      // thread) until a writer comes; it changes nothing for a regular file.
      const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
      const handle = await fs.open(join(parent, segments[segments.length - 1]!), flags);
      try {
        const stat = await handle.stat();
        if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
        if (stat.size > maxBytes) throw new TooLargeError(`${path} is ${stat.size} bytes, more than the ${maxBytes} left`);
        const buffer = Buffer.alloc(stat.size);
        const { bytesRead } = await handle.read(buffer, 0, stat.size, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
  };
}

/** Skills declared in code: `{ 'skill-name/SKILL.md': '---…', 'skill-name/references/x.md': … }`. */
export function memoryStore(files: Readonly<Record<string, string | Uint8Array>>): SkillStore {
  const children = new Map<string, Map<string, StoreEntry>>();
  for (const key of Object.keys(files)) {
    const segments = segmentsOf(key);
    segments.forEach((name, depth) => {
      const dir = segments.slice(0, depth).join('/');
      if (!children.has(dir)) children.set(dir, new Map());
      children.get(dir)!.set(name, { name, kind: depth < segments.length - 1 ? 'directory' : 'file' });
    });
  }
  return {
    async list(dir) {
      return [...(children.get(dir)?.values() ?? [])];
    },
    async read(path, maxBytes) {
      const content = Object.hasOwn(files, path) ? files[path] : undefined;
      if (content === undefined) throw new Error(`no such file: ${path}`);
      const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
      if (bytes.byteLength > maxBytes) throw new TooLargeError(`${path} is ${bytes.byteLength} bytes, more than the ${maxBytes} left`);
      return bytes;
    },
  };
}
