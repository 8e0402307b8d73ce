import { isBusy, openSqlite, type SqliteDatabase } from './sqlite';

/** A stored note. */
export interface Note {
  id: number;
  title: string;
  body: string;
  tags: string[];
  createdAt: string;
  updatedAt: string;
}

interface NoteRow {
  id: number;
  title: string;
  body: string;
  tags: string;
  created_at: string;
  updated_at: string;
}

function toNote(row: NoteRow): Note {
  return { id: row.id, title: row.title, body: row.body, tags: JSON.parse(row.tags) as string[], createdAt: row.created_at, updatedAt: row.updated_at };
}

const WAL_ATTEMPTS = 5;
const WAL_PAUSE_MS = 100;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Puts the file in WAL mode, so that several processes (scaled-out instances) share it. Turning
 * it on takes the file for a moment, and a second process starting at the same time can get
 * SQLITE_BUSY (seen once in CI: two instances started together on a new file, on a loaded
 * machine), so it is tried a few times. The mode stays in the file: a later start finds it set.
 */
function useWal(db: SqliteDatabase): void {
  for (let attempt = 1; ; attempt++) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (error) {
      if (!isBusy(error) || attempt >= WAL_ATTEMPTS) throw error;
      Atomics.wait(pause, 0, 0, WAL_PAUSE_MS);
    }
  }
}

/** Notes in one SQLite file; statements are prepared once. */
export class NoteStore {
  private readonly db: SqliteDatabase;
  private readonly statements;
  private readonly listeners = new Set<(id: number) => void>();

  constructor(path: string) {
    this.db = openSqlite(path);
    useWal(this.db);
    this.db.exec(`CREATE TABLE IF NOT EXISTS notes (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      title TEXT NOT NULL,
      body TEXT NOT NULL,
      tags TEXT NOT NULL DEFAULT '[]',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`);
    this.statements = {
      insert: this.db.prepare('INSERT INTO notes (title, body, tags, created_at, updated_at) VALUES (?, ?, ?, ?, ?)'),
      get: this.db.prepare<NoteRow>('SELECT * FROM notes WHERE id = ?'),
      all: this.db.prepare<NoteRow>('SELECT * FROM notes ORDER BY id'),
      search: this.db.prepare<NoteRow>(
        "SELECT * FROM notes WHERE title LIKE ? ESCAPE '\\' OR body LIKE ? ESCAPE '\\' OR tags LIKE ? ESCAPE '\\' ORDER BY updated_at DESC, id DESC LIMIT ?",
      ),
      update: this.db.prepare('UPDATE notes SET title = ?, body = ?, tags = ?, updated_at = ? WHERE id = ?'),
      remove: this.db.prepare('DELETE FROM notes WHERE id = ?'),
    };
  }

  /**
   * Calls `listener` with the id of every note this store creates, updates or deletes, after the
   * write. Returns the function that stops it. Writes of other processes on the same file are
   * theirs to announce.
   */
  onChange(listener: (id: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  create(title: string, body: string, tags: string[]): Note {
    const now = new Date().toISOString();
    const { lastInsertRowid } = this.statements.insert.run(title, body, JSON.stringify(tags), now, now);
    const note = this.get(Number(lastInsertRowid))!;
    this.changed(note.id);
    return note;
  }

  get(id: number): Note | undefined {
    const row = this.statements.get.get(id);
    return row ? toNote(row) : undefined;
  }

  all(): Note[] {
    return this.statements.all.all().map(toNote);
  }

  search(query: string, limit: number): Note[] {
    const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return this.statements.search.all(pattern, pattern, pattern, limit).map(toNote);
  }

  update(id: number, changes: { title?: string; body?: string; tags?: string[] }): Note | undefined {
    const note = this.get(id);
    if (!note) return undefined;
    this.statements.update.run(changes.title ?? note.title, changes.body ?? note.body, JSON.stringify(changes.tags ?? note.tags), new Date().toISOString(), id);
    this.changed(id);
    return this.get(id);
  }

  delete(id: number): boolean {
    const deleted = this.statements.remove.run(id).changes > 0;
    if (deleted) this.changed(id);
    return deleted;
  }

  close(): void {
    this.db.close();
  }

  private changed(id: number): void {
    for (const listener of this.listeners) listener(id);
  }
}
