import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { StoredTask, TaskChange, TaskStore } from '@mcpkit/core';

interface TaskRow {
  task_id: string;
  owner: string | null;
  tool: string;
  status: StoredTask['status'];
  status_message: string | null;
  created_at: number;
  last_updated_at: number;
  ttl_ms: number | null;
  poll_interval_ms: number;
  result: string | null;
  error: string | null;
  input_requests: string | null;
  worker: string | null;
}

/** What a restart does to the tasks that were running: their work died with the process. */
export const LOST_TASK_MESSAGE = 'The server stopped while this task ran; its work was lost. Run it again.';

function toTask(row: TaskRow): StoredTask {
  const task: StoredTask = {
    taskId: row.task_id,
    owner: row.owner ?? undefined,
    tool: row.tool,
    status: row.status,
    createdAt: row.created_at,
    lastUpdatedAt: row.last_updated_at,
    ttlMs: row.ttl_ms,
    pollIntervalMs: row.poll_interval_ms,
  };
  if (row.status_message !== null) task.statusMessage = row.status_message;
  if (row.result !== null) task.result = JSON.parse(row.result) as Record<string, unknown>;
  if (row.error !== null) task.error = JSON.parse(row.error) as StoredTask['error'];
  if (row.input_requests !== null) task.inputRequests = JSON.parse(row.input_requests) as StoredTask['inputRequests'];
  if (row.worker !== null) task.worker = row.worker;
  return task;
}

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/**
 * Tasks in SQLite, so that a task's status and result outlive the process. Opening the store
 * reports every task still `working` or `input_required` as `failed`: this server is the only one
 * on its database, so whatever ran them is gone. Updates are compare-and-set in SQL (a terminal
 * task is never changed again).
 */
export class SqliteTaskStore implements TaskStore {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(
    path: string,
    private readonly now: () => number = Date.now,
  ) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS tasks (
      task_id TEXT PRIMARY KEY,
      owner TEXT,
      tool TEXT NOT NULL,
      status TEXT NOT NULL,
      status_message TEXT,
      created_at INTEGER NOT NULL,
      last_updated_at INTEGER NOT NULL,
      ttl_ms INTEGER,
      poll_interval_ms INTEGER NOT NULL,
      result TEXT,
      error TEXT,
      input_requests TEXT,
      worker TEXT
    )`);
    this.statements = {
      insert: this.db.prepare(
        `INSERT INTO tasks (task_id, owner, tool, status, status_message, created_at, last_updated_at, ttl_ms, poll_interval_ms, result, error, input_requests, worker)
         VALUES (@task_id, @owner, @tool, @status, @status_message, @created_at, @last_updated_at, @ttl_ms, @poll_interval_ms, @result, @error, @input_requests, @worker)`,
      ),
      get: this.db.prepare<[string], TaskRow>('SELECT * FROM tasks WHERE task_id = ?'),
      remove: this.db.prepare<[string]>('DELETE FROM tasks WHERE task_id = ?'),
      expire: this.db.prepare<[number]>('DELETE FROM tasks WHERE ttl_ms IS NOT NULL AND created_at + ttl_ms <= ?'),
      update: this.db.prepare(
        `UPDATE tasks SET status = @status, status_message = @status_message, result = @result, error = @error, input_requests = @input_requests, last_updated_at = @now
         WHERE task_id = @task_id AND status IN ('working', 'input_required')`,
      ),
      list: this.db.prepare<[string | null, number, number, number], TaskRow>(
        'SELECT * FROM tasks WHERE owner IS ? AND (ttl_ms IS NULL OR created_at + ttl_ms > ?) ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?',
      ),
      orphans: this.db.prepare<[string, string, number]>(
        `UPDATE tasks SET status = 'failed', status_message = ?, error = ?, input_requests = NULL, last_updated_at = ? WHERE status IN ('working', 'input_required')`,
      ),
    };
    this.statements.expire.run(this.now());
    const error = JSON.stringify({ code: -32603, message: LOST_TASK_MESSAGE });
    this.statements.orphans.run(LOST_TASK_MESSAGE, error, this.now());
  }

  create(task: StoredTask): Promise<void> {
    this.statements.insert.run({
      task_id: task.taskId,
      owner: task.owner ?? null,
      tool: task.tool,
      status: task.status,
      status_message: task.statusMessage ?? null,
      created_at: task.createdAt,
      last_updated_at: task.lastUpdatedAt,
      ttl_ms: task.ttlMs,
      poll_interval_ms: task.pollIntervalMs,
      result: json(task.result),
      error: json(task.error),
      input_requests: json(task.inputRequests),
      worker: task.worker ?? null,
    });
    return Promise.resolve();
  }

  get(taskId: string): Promise<StoredTask | undefined> {
    const row = this.statements.get.get(taskId);
    if (row === undefined) return Promise.resolve(undefined);
    if (row.ttl_ms !== null && row.created_at + row.ttl_ms <= this.now()) {
      this.statements.remove.run(taskId);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(toTask(row));
  }

  update(taskId: string, change: TaskChange): Promise<StoredTask | undefined> {
    const row = this.statements.get.get(taskId);
    if (row === undefined) return Promise.resolve(undefined);
    const current = toTask(row);
    const next = { ...current, ...change };
    const applied = this.statements.update.run({
      task_id: taskId,
      status: next.status,
      status_message: next.statusMessage ?? null,
      result: json(next.result),
      error: json(next.error),
      input_requests: 'inputRequests' in change && change.inputRequests === undefined ? null : json(next.inputRequests),
      now: this.now(),
    });
    if (applied.changes === 0) return Promise.resolve(undefined);
    return this.get(taskId);
  }

  list(owner: string | undefined, page: { cursor?: string; limit: number }): Promise<{ tasks: StoredTask[]; nextCursor?: string }> {
    const offset = page.cursor === undefined ? 0 : Number.parseInt(Buffer.from(page.cursor, 'base64url').toString(), 10) || 0;
    const rows = this.statements.list.all(owner ?? null, this.now(), page.limit + 1, offset);
    const tasks = rows.slice(0, page.limit).map(toTask);
    return Promise.resolve(rows.length > page.limit ? { tasks, nextCursor: Buffer.from(String(offset + page.limit)).toString('base64url') } : { tasks });
  }

  close(): void {
    this.db.close();
  }
}
