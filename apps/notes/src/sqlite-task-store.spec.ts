import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoredTask } from '@mcpkit/core';
import { taskStoreContract } from '../../../packages/http/test/contracts/task-store.contract';
import { openSqlite, type SqliteDatabase } from './sqlite';
import { LOST_TASK_MESSAGE, SqliteTaskStore } from './sqlite-task-store';

taskStoreContract('SqliteTaskStore', (setup) => {
  const store = new SqliteTaskStore(':memory:', setup);
  return { store, cleanup: () => store.close() };
});

function task(taskId: string, overrides: Partial<StoredTask> = {}): StoredTask {
  return { taskId, owner: undefined, tool: 'export_notes', status: 'working', createdAt: 0, lastUpdatedAt: 0, ttlMs: null, pollIntervalMs: 500, ...overrides };
}

describe('SqliteTaskStore', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tasks-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps a finished task across a reopen, and reports one that was running as failed', async () => {
    const path = join(dir, 'tasks.db');
    const first = new SqliteTaskStore(path);
    await first.create(task('done'));
    await first.update('done', { status: 'completed', result: { content: [{ type: 'text', text: 'ok' }] } });
    await first.create(task('running', { owner: 'session-1' }));
    await first.update('running', { status: 'input_required', inputRequests: { k: { method: 'elicitation/create', params: {} } } });
    first.close();
    const second = new SqliteTaskStore(path);
    expect(await second.get('done')).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'ok' }] } });
    const lost = await second.get('running');
    expect(lost).toMatchObject({ status: 'failed', statusMessage: LOST_TASK_MESSAGE, error: { code: -32603, message: LOST_TASK_MESSAGE }, owner: 'session-1' });
    expect(lost).not.toHaveProperty('inputRequests');
    second.close();
  });

  it('never changes a terminal task (compare-and-set), and drops inputRequests on demand', async () => {
    const store = new SqliteTaskStore(':memory:');
    await store.create(task('x'));
    await store.update('x', { status: 'input_required', inputRequests: { a: { method: 'elicitation/create', params: {} } } });
    expect(await store.update('x', { status: 'working', inputRequests: undefined })).not.toHaveProperty('inputRequests');
    expect(await store.update('x', { status: 'cancelled' })).toMatchObject({ status: 'cancelled' });
    expect(await store.update('x', { status: 'completed', result: { content: [] } })).toBeUndefined();
    expect(await store.get('x')).toMatchObject({ status: 'cancelled' });
    expect(await store.update('unknown', { status: 'failed' })).toBeUndefined();
    store.close();
  });

  it('counts the tasks of a database written before the counts existed, and makes room by them', async () => {
    const path = join(dir, 'old.db');
    const old = openSqlite(path);
    old.exec(`CREATE TABLE tasks (task_id TEXT PRIMARY KEY, owner TEXT, tool TEXT NOT NULL, status TEXT NOT NULL, status_message TEXT,
      created_at INTEGER NOT NULL, last_updated_at INTEGER NOT NULL, ttl_ms INTEGER, poll_interval_ms INTEGER NOT NULL, result TEXT, error TEXT,
      input_requests TEXT, worker TEXT)`);
    const insert = old.prepare(
      `INSERT INTO tasks (task_id, owner, tool, status, created_at, last_updated_at, poll_interval_ms) VALUES (?, ?, 'export_notes', 'completed', ?, 0, 500)`,
    );
    for (let i = 0; i < 3; i += 1) insert.run(`big-${i}`, 'big', i);
    insert.run('small-0', 'small', 0);
    insert.run('anon-0', null, 0);
    old.close();
    const store = new SqliteTaskStore(path, { maxTasks: 5, maxTasksPerOwner: 3 });
    // Full: the owner holding the most gives its oldest result.
    await store.create(task('new-0', { owner: 'new' }));
    expect(await store.get('big-0')).toBeUndefined();
    expect((await store.list('big', { limit: 5 })).tasks.map((t) => t.taskId)).toEqual(['big-2', 'big-1']);
    expect(await store.get('small-0')).toBeDefined();
    expect(await store.get('anon-0')).toBeDefined();
    store.close();
  });

  it('makes room with indexes only: no statement a create runs reads the whole table', () => {
    const store = new SqliteTaskStore(':memory:');
    // The statement's SQL: `source` on better-sqlite3, `sourceSQL` on node:sqlite.
    const { db, statements } = store as unknown as { db: SqliteDatabase; statements: Record<string, { source?: string; sourceSQL?: string }> };
    const plan = (name: string, ...args: unknown[]): string =>
      db
        .prepare(`EXPLAIN QUERY PLAN ${statements[name].source ?? statements[name].sourceSQL}`)
        .all(...args)
        .map((row) => (row as { detail: string }).detail)
        .join('; ');
    for (const [name, args] of [
      ['expire', [{ now: 0 }]],
      ['countOwner', ['x']],
      ['largestGiver', []],
      ['dropOldestFinished', ['x']],
      ['dropOldestOwnerless', []],
    ] as const) {
      expect({ name, plan: plan(name, ...args) }).toEqual({ name, plan: expect.not.stringMatching(/SCAN tasks\b|TEMP B-TREE/) });
    }
    store.close();
  });

  it('forgets a task after its TTL and lists per owner, newest first, in pages', async () => {
    let now = 0;
    const store = new SqliteTaskStore(':memory:', { now: () => now });
    await store.create(task('a', { owner: 'o', createdAt: 1 }));
    await store.create(task('b', { owner: 'o', createdAt: 2 }));
    await store.create(task('c', { owner: 'o', createdAt: 3, ttlMs: 10 }));
    await store.create(task('z', { owner: 'other', createdAt: 4 }));
    const first = await store.list('o', { limit: 2 });
    expect(first.tasks.map((t) => t.taskId)).toEqual(['c', 'b']);
    expect((await store.list('o', { limit: 2, cursor: first.nextCursor })).tasks.map((t) => t.taskId)).toEqual(['a']);
    now = 13;
    expect(await store.get('c')).toBeUndefined();
    expect((await store.list('o', { limit: 5 })).tasks.map((t) => t.taskId)).toEqual(['b', 'a']);
    store.close();
  });
});
