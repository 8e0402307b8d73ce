import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultDriver, isBusy, openSqlite } from './sqlite';

describe('openSqlite', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'notes-sqlite-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('uses node:sqlite from Node 24 on, better-sqlite3 before', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(defaultDriver()).toBe(major >= 24 ? 'node:sqlite' : 'better-sqlite3');
    const db = openSqlite(':memory:');
    expect(db.driver).toBe(defaultDriver());
    db.close();
  });

  it('creates the folder, binds positional and named parameters, and reports changes and row ids', () => {
    const db = openSqlite(join(dir, 'a', 'b', 'x.db'));
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER)');
    const insert = db.prepare('INSERT INTO t (name, n) VALUES (?, ?)');
    expect(Number(insert.run('one', 1).lastInsertRowid)).toBe(1);
    const named = db.prepare('INSERT INTO t (name, n) VALUES (@name, @n)');
    expect(named.run({ name: 'two', n: 2 }).changes).toBe(1);
    expect({ ...db.prepare<{ name: string }>('SELECT name FROM t WHERE n = ?').get(2) }).toEqual({ name: 'two' });
    expect(db.prepare('SELECT * FROM t WHERE n = ?').get(9)).toBeUndefined();
    expect(
      db
        .prepare<{ n: number }>('SELECT n FROM t ORDER BY n')
        .all()
        .map((row) => row.n),
    ).toEqual([1, 2]);
    db.close();
  });

  it('commits a transaction that returns and rolls back one that throws', () => {
    const db = openSqlite(':memory:');
    db.exec('CREATE TABLE t (n INTEGER)');
    const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
    const twice = db.transaction((n: number, fail: boolean) => {
      insert.run(n);
      insert.run(n);
      if (fail) throw new Error('refused');
    });
    twice(1, false);
    expect(() => twice(2, true)).toThrow('refused');
    twice(3, false);
    expect(
      db
        .prepare<{ n: number }>('SELECT n FROM t')
        .all()
        .map((row) => row.n),
    ).toEqual([1, 1, 3, 3]);
    db.close();
  });

  it('tells SQLITE_BUSY from other errors, as either driver reports it', () => {
    expect(isBusy(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))).toBe(true);
    expect(isBusy(Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 }))).toBe(true);
    expect(isBusy(Object.assign(new Error('no such table'), { code: 'ERR_SQLITE_ERROR', errcode: 1 }))).toBe(false);
    expect(isBusy(Object.assign(new Error('constraint'), { code: 'SQLITE_CONSTRAINT' }))).toBe(false);
  });
});
