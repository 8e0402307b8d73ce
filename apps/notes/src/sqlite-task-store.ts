import { resolveTaskStoreBounds, TaskStoreFullError, type StoredTask, type TaskChange, type TaskStore, type TaskStoreBounds } from '@mcpkit/core';
import { openSqlite, type RunResult, type SqliteDatabase } from './sqlite';

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

/** The condition of a finished task, and its 0 or 1 for a row (`NEW` or `OLD` in a trigger). */
const FINISHED = "status IN ('completed', 'failed', 'cancelled')";
const finished = (row: 'NEW' | 'OLD'): string => `(${row}.${FINISHED})`;

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/** Options of `SqliteTaskStore`: its bounds (default 1000 tasks, 100 per owner) and clock. */
export interface SqliteTaskStoreOptions extends Partial<TaskStoreBounds> {
  /** The clock (tests). */
  now?: () => number;
}

/**
 * Tasks in SQLite, so that a task's status and result outlive the process. Opening the store
 * reports every task still `working` or `input_required` as `failed`: this server is the only one
 * on its database, so whatever ran them is gone. Updates are compare-and-set in SQL (a terminal
 * task is never changed again). Bounded as every store is (docs/tasks.md): expired rows are
 * deleted as tasks are created, and past `maxTasksPerOwner` or `maxTasks` a new task makes room
 * by deleting a finished task (its owner's own; in a full store, of the owner holding the most)
 * or is refused. Triggers keep each owner's counts, so no bound reads the whole table.
 */
export class SqliteTaskStore implements TaskStore {
  private readonly db: SqliteDatabase;
  private readonly statements;
  private readonly now: () => number;
  private readonly bounds: TaskStoreBounds;
  private readonly insert: (task: StoredTask) => void;
  // The rows held: this process is the only one on its database, so it counts them itself.
  private total: number;

  constructor(path: string, options: SqliteTaskStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.bounds = resolveTaskStoreBounds(options);
    this.db = openSqlite(path);
    this.db.exec('PRAGMA journal_mode = WAL');
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
    // What the bounds count and expiry deletes, without a scan of the whole table per task:
    // each owner's tasks and finished ones, kept by triggers; the finished tasks by owner and age.
    this.db.exec(`CREATE INDEX IF NOT EXISTS tasks_by_owner ON tasks (owner, created_at);
      CREATE INDEX IF NOT EXISTS tasks_by_expiry ON tasks (created_at + ttl_ms) WHERE ttl_ms IS NOT NULL;
      CREATE INDEX IF NOT EXISTS tasks_finished ON tasks (owner, created_at) WHERE ${FINISHED};
      CREATE TABLE IF NOT EXISTS task_owners (owner TEXT PRIMARY KEY, tasks INTEGER NOT NULL, finished INTEGER NOT NULL) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS task_givers ON task_owners (tasks) WHERE finished > 0;
      CREATE TRIGGER IF NOT EXISTS task_counted AFTER INSERT ON tasks WHEN NEW.owner IS NOT NULL BEGIN
        INSERT INTO task_owners (owner, tasks, finished) VALUES (NEW.owner, 1, ${finished('NEW')})
          ON CONFLICT (owner) DO UPDATE SET tasks = tasks + 1, finished = finished + excluded.finished;
      END;
      CREATE TRIGGER IF NOT EXISTS task_uncounted AFTER DELETE ON tasks WHEN OLD.owner IS NOT NULL BEGIN
        UPDATE task_owners SET tasks = tasks - 1, finished = finished - ${finished('OLD')} WHERE owner = OLD.owner;
        DELETE FROM task_owners WHERE owner = OLD.owner AND tasks <= 0;
      END;
      CREATE TRIGGER IF NOT EXISTS task_finished AFTER UPDATE OF status ON tasks WHEN NEW.owner IS NOT NULL BEGIN
        UPDATE task_owners SET finished = finished + ${finished('NEW')} - ${finished('OLD')} WHERE owner = NEW.owner;
      END`);
    this.statements = {
      insert: this.db.prepare(
        `INSERT INTO tasks (task_id, owner, tool, status, status_message, created_at, last_updated_at, ttl_ms, poll_interval_ms, result, error, input_requests, worker)
         VALUES (@task_id, @owner, @tool, @status, @status_message, @created_at, @last_updated_at, @ttl_ms, @poll_interval_ms, @result, @error, @input_requests, @worker)`,
      ),
      get: this.db.prepare<TaskRow>('SELECT * FROM tasks WHERE task_id = ?'),
      remove: this.db.prepare('DELETE FROM tasks WHERE task_id = ?'),
      expire: this.db.prepare('DELETE FROM tasks WHERE ttl_ms IS NOT NULL AND created_at + ttl_ms <= @now'),
      countAll: this.db.prepare<{ n: number }>('SELECT COUNT(*) AS n FROM tasks'),
      countOwner: this.db.prepare<{ n: number }>('SELECT tasks AS n FROM task_owners WHERE owner = ?'),
      // Rebuilt at start: a database written before the counts existed, or by hand, is counted right.
      recount: this.db.prepare(
        `INSERT INTO task_owners (owner, tasks, finished) SELECT owner, COUNT(*), SUM(${FINISHED}) FROM tasks WHERE owner IS NOT NULL GROUP BY owner`,
      ),
      uncount: this.db.prepare('DELETE FROM task_owners'),
      // The owner holding the most tasks among those holding a finished one.
      largestGiver: this.db.prepare<{ owner: string; tasks: number }>('SELECT owner, tasks FROM task_owners WHERE finished > 0 ORDER BY tasks DESC LIMIT 1'),
      dropOldestFinished: this.db.prepare(
        `DELETE FROM tasks WHERE rowid = (SELECT rowid FROM tasks WHERE owner = ? AND ${FINISHED} ORDER BY created_at LIMIT 1)`,
      ),
      dropOldestOwnerless: this.db.prepare(
        `DELETE FROM tasks WHERE rowid = (SELECT rowid FROM tasks WHERE owner IS NULL AND ${FINISHED} ORDER BY created_at LIMIT 1)`,
      ),
      update: this.db.prepare(
        `UPDATE tasks SET status = @status, status_message = @status_message, result = @result, error = @error, input_requests = @input_requests, last_updated_at = @now
         WHERE task_id = @task_id AND status IN ('working', 'input_required')`,
      ),
      list: this.db.prepare<TaskRow>(
        'SELECT * FROM tasks WHERE owner = @owner AND (ttl_ms IS NULL OR created_at + ttl_ms > @now) ORDER BY created_at DESC, rowid DESC LIMIT @limit OFFSET @offset',
      ),
      orphans: this.db.prepare(
        `UPDATE tasks SET status = 'failed', status_message = ?, error = ?, input_requests = NULL, last_updated_at = ? WHERE status IN ('working', 'input_required')`,
      ),
    };
    this.statements.expire.run({ now: this.now() });
    const error = JSON.stringify({ code: -32603, message: LOST_TASK_MESSAGE });
    this.statements.orphans.run(LOST_TASK_MESSAGE, error, this.now());
    this.db.transaction(() => (this.statements.uncount.run(), this.statements.recount.run()))();
    this.total = this.statements.countAll.get()!.n;
    // One transaction: the count a bound reads is the count the insert adds to.
    this.insert = this.db.transaction((task: StoredTask) => {
      this.makeRoom(task.owner);
      this.write(task);
      this.total += 1;
    });
  }

  create(task: StoredTask): Promise<void> {
    const before = this.total;
    try {
      this.insert(task);
    } catch (error) {
      // The transaction was rolled back, and the rows it dropped with it.
      this.total = before;
      return Promise.reject(error);
    }
    return Promise.resolve();
  }

  /**
   * Room for one more task of `owner`: expired rows go; at its share, its own oldest finished
   * task; in a full store, the oldest finished task of the owner holding the most (an ownerless
   * one counting as an owner of one, before an owner of one); else a TaskStoreFullError. Each
   * step is one lookup in an index.
   */
  private makeRoom(owner: string | undefined): void {
    this.total -= this.statements.expire.run({ now: this.now() }).changes;
    const { maxTasks, maxTasksPerOwner } = this.bounds;
    if (owner !== undefined && (this.statements.countOwner.get(owner)?.n ?? 0) >= maxTasksPerOwner) {
      if (!this.dropped(this.statements.dropOldestFinished.run(owner))) throw new TaskStoreFullError(maxTasksPerOwner, 'owner');
    }
    if (this.total >= maxTasks) {
      const giver = this.statements.largestGiver.get();
      const made =
        (giver !== undefined && giver.tasks > 1 && this.dropped(this.statements.dropOldestFinished.run(giver.owner))) ||
        this.dropped(this.statements.dropOldestOwnerless.run()) ||
        (giver !== undefined && this.dropped(this.statements.dropOldestFinished.run(giver.owner)));
      if (!made) throw new TaskStoreFullError(maxTasks, 'store');
    }
  }

  /** Whether a DELETE took a row, which then no longer counts. */
  private dropped(outcome: RunResult): boolean {
    this.total -= outcome.changes;
    return outcome.changes > 0;
  }

  private write(task: StoredTask): void {
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
  }

  get(taskId: string): Promise<StoredTask | undefined> {
    const row = this.statements.get.get(taskId);
    if (row === undefined) return Promise.resolve(undefined);
    if (row.ttl_ms !== null && row.created_at + row.ttl_ms <= this.now()) {
      this.total -= this.statements.remove.run(taskId).changes;
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

  list(owner: string, page: { cursor?: string; limit: number }): Promise<{ tasks: StoredTask[]; nextCursor?: string }> {
    const offset = page.cursor === undefined ? 0 : Number.parseInt(Buffer.from(page.cursor, 'base64url').toString(), 10) || 0;
    // `owner = @owner`, not IS: ownerless rows are in no list.
    const rows = this.statements.list.all({ owner, now: this.now(), limit: page.limit + 1, offset });
    const tasks = rows.slice(0, page.limit).map(toTask);
    return Promise.resolve(rows.length > page.limit ? { tasks, nextCursor: Buffer.from(String(offset + page.limit)).toString('base64url') } : { tasks });
  }

  close(): void {
    this.db.close();
  }
}
