import { dirname, join } from 'node:path';
import { createApp, resolveTaskStoreBounds, type AppOptions, type McpApp, type TaskStore, type TaskStoreBounds } from '@mcpkit/core';
import { GuardedNotesBoard, GuardedNotesExport, GuardedNotesProvider } from './access';
import { NotesBoard } from './board.provider';
import { DEFAULT_RETENTION, NotesExport } from './export.provider';
import type { ExportRetention } from './export-retention';
import { SqliteTaskStore } from './sqlite-task-store';
import { NoteStore } from './note-store';
import { NotesProvider } from './notes.provider';
import { skills } from '@mcpkit/skills';

/** Where notes live: `NOTES_DB`, else `data/notes.db` in this app's folder. */
export function notesDatabasePath(env: NodeJS.ProcessEnv = process.env): string {
  return env.NOTES_DB ?? join(__dirname, '..', 'data', 'notes.db');
}

/** Where `export_notes` writes: `NOTES_EXPORT_DIR`, else `exports` beside the database. */
export function notesExportDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.NOTES_EXPORT_DIR ?? join(dirname(notesDatabasePath(env)), 'exports');
}

/** A positive whole number from `env[name]`, or undefined when unset; throws naming the variable otherwise. */
function positiveFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!(Number.isInteger(value) && value > 0)) throw new Error(`${name} must be a positive whole number, got ${JSON.stringify(raw)}`);
  return value;
}

/**
 * The notes' bounds on what tasks leave behind, from the environment: `NOTES_MAX_TASKS` (default
 * 1000) and `NOTES_MAX_TASKS_PER_OWNER` (default 100) bound the task store, SQLite or Redis;
 * `NOTES_MAX_EXPORTS` (default 100) the archives kept in the export folder, none of which outlives
 * the longest task TTL (a day). Throws for a value that is not a positive whole number.
 */
export function notesLimits(env: NodeJS.ProcessEnv = process.env): { tasks: Partial<TaskStoreBounds>; archives: ExportRetention } {
  const tasks = resolveTaskStoreBounds({
    maxTasks: positiveFromEnv(env, 'NOTES_MAX_TASKS'),
    maxTasksPerOwner: positiveFromEnv(env, 'NOTES_MAX_TASKS_PER_OWNER'),
  });
  return { tasks, archives: { ...DEFAULT_RETENTION, maxExports: positiveFromEnv(env, 'NOTES_MAX_EXPORTS') ?? DEFAULT_RETENTION.maxExports } };
}

/** The tasks' database, beside the notes' (an in-memory notes database gets in-memory tasks). */
function taskDatabasePath(notes: string): string {
  return notes === ':memory:' ? ':memory:' : `${notes}.tasks`;
}

/**
 * What a deployment may add to the notes app: a shared bus, rate-limit store, request-state
 * store and key when several instances serve it, its logger; `guarded`: every primitive has its
 * access rule and needs a caller (the authenticated mode, auth.ts); `archives`: how many exports
 * are kept (default from the environment, `notesLimits`).
 */
export type NotesAppOptions = Pick<AppOptions, 'bus' | 'rateLimitStore' | 'requestStateStore' | 'requestStateSecret' | 'logger' | 'dynamic'> & {
  guarded?: boolean;
  archives?: ExportRetention;
};

/** The notes' Agent Skills (served through the Skills extension): `skills/` in this app's folder. */
export const NOTES_SKILLS_DIR = join(__dirname, '..', 'skills');

/** The resource that lists every note; each note is also `notes://{id}`. */
export const NOTES_INDEX = 'notes://index';

/**
 * Builds the notes app over a store. Side-effect free apart from opening the databases. Tasks
 * (`export_notes`) live in SQLite beside the notes, so their outcome outlives a restart. Its
 * resources are subscribable: every note written through `store` tells the subscribers of
 * `notes://index` and of `notes://{id}`. The input-required key is `MCP_REQUEST_STATE_SECRET`
 * unless `options` says otherwise (default: random per process).
 */
export function createNotesApp(
  store: NoteStore = new NoteStore(notesDatabasePath()),
  tasks: TaskStore = new SqliteTaskStore(taskDatabasePath(notesDatabasePath()), notesLimits().tasks),
  exportDir: string = notesExportDir(),
  { guarded = false, archives = notesLimits().archives, ...options }: NotesAppOptions = {},
): McpApp {
  const access = guarded
    ? {
        providers: [new GuardedNotesProvider(store), new GuardedNotesExport(store, exportDir, archives), new GuardedNotesBoard(store)],
        requireAuth: true,
        impliedScopes: { 'notes:write': ['notes:read'] },
      }
    : { providers: [new NotesProvider(store), new NotesExport(store, exportDir, archives), new NotesBoard(store)] };
  const app = createApp({
    // The Skills extension: how to keep notes tidy with these tools (skills/tidy-notes).
    extensions: [skills({ dir: NOTES_SKILLS_DIR })],
    name: 'mcpkit-notes',
    version: '0.1.0',
    title: 'Notes',
    instructions: 'Keeps notes. Search before creating duplicates; read notes://{id} for a whole note.',
    ...access,
    // No task outlives the archive it names: both last at most a day.
    tasks: { store: tasks, pollIntervalMs: 500, maxTtlMs: archives.maxAgeMs },
    subscriptions: true,
    requestStateSecret: process.env.MCP_REQUEST_STATE_SECRET || undefined,
    ...options,
  });
  store.onChange((id) => {
    // The write is done: a failed announcement is logged, never the tool's error.
    try {
      app.resourceUpdated(NOTES_INDEX);
      app.resourceUpdated(`notes://${id}`);
    } catch (error) {
      app.logger.warn({ err: error, noteId: id }, 'could not announce a note change');
    }
  });
  return app;
}
