import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/** What a write statement reports. */
export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/** A prepared statement: positional parameters, or one object of named ones (`@name`). */
export interface Statement<Row = unknown> {
  run(...params: unknown[]): RunResult;
  get(...params: unknown[]): Row | undefined;
  all(...params: unknown[]): Row[];
}

/** The SQLite the notes app needs, on either driver. */
export interface SqliteDatabase {
  /** Which driver opened the file. */
  readonly driver: SqliteDriver;
  exec(sql: string): void;
  prepare<Row = unknown>(sql: string): Statement<Row>;
  /** `fn` in one transaction: committed when it returns, rolled back when it throws. */
  transaction<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void;
  close(): void;
}

/**
 * `node:sqlite` (built into Node, no native build to install) or better-sqlite3 (an addon, for
 * the Nodes whose `node:sqlite` is missing or still prints an experimental warning).
 */
export type SqliteDriver = 'node:sqlite' | 'better-sqlite3';

interface NodeSqlite {
  DatabaseSync: new (path: string) => { exec(sql: string): void; prepare(sql: string): Statement; close(): void };
}

// Node 24 is the first whose node:sqlite loads without an ExperimentalWarning on stderr.
const NODE_SQLITE_FROM_MAJOR = 24;

/** The driver this process uses unless told: node:sqlite where Node has it quietly. */
export function defaultDriver(): SqliteDriver {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= NODE_SQLITE_FROM_MAJOR && process.getBuiltinModule?.('node:sqlite') !== undefined ? 'node:sqlite' : 'better-sqlite3';
}

// How long a write waits for another process's lock (scaled-out instances share the file):
// better-sqlite3's default, which node:sqlite (no wait) does not have.
const BUSY_TIMEOUT_MS = 5_000;

/** Opens (creating its folder) the SQLite file at `path`, or `:memory:`. */
export function openSqlite(path: string, driver: SqliteDriver = defaultDriver()): SqliteDatabase {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = driver === 'node:sqlite' ? openBuiltIn(path) : openAddon(path);
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return db;
}

function openBuiltIn(path: string): SqliteDatabase {
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite') as NodeSqlite;
  const db = new DatabaseSync(path);
  return {
    driver: 'node:sqlite',
    exec: (sql) => db.exec(sql),
    prepare: <Row>(sql: string) => db.prepare(sql) as Statement<Row>,
    transaction:
      <A extends unknown[]>(fn: (...args: A) => void) =>
      (...args: A) => {
        db.exec('BEGIN');
        try {
          fn(...args);
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
        db.exec('COMMIT');
      },
    close: () => db.close(),
  };
}

function openAddon(path: string): SqliteDatabase {
  // Loaded only when used: a Node on node:sqlite never loads the addon (nor needs it built).
  const Database = createRequire(__filename)('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(path);
  return {
    driver: 'better-sqlite3',
    exec: (sql) => void db.exec(sql),
    prepare: <Row>(sql: string) => db.prepare(sql) as unknown as Statement<Row>,
    transaction: (fn) => db.transaction(fn),
    close: () => void db.close(),
  };
}

/** Whether `error` is SQLite's "database is locked" (SQLITE_BUSY), from either driver. */
export function isBusy(error: unknown): boolean {
  const { code, errcode } = error as { code?: string; errcode?: number };
  return code === 'SQLITE_BUSY' || errcode === 5;
}
