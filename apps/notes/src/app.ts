import { dirname, join } from 'node:path';
import { createApp, type AppOptions, type McpApp, type TaskStore } from '@mcpkit/core';
import { GuardedNotesExport, GuardedNotesProvider } from './access';
import { NotesExport } from './export.provider';
import { SqliteTaskStore } from './sqlite-task-store';
import { NoteStore } from './note-store';
import { NotesProvider } from './notes.provider';

/** Where notes live: `NOTES_DB`, else `data/notes.db` in this app's folder. */
export function notesDatabasePath(env: NodeJS.ProcessEnv = process.env): string {
  return env.NOTES_DB ?? join(__dirname, '..', 'data', 'notes.db');
}

/** Where `export_notes` writes: `NOTES_EXPORT_DIR`, else `exports` beside the database. */
export function notesExportDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.NOTES_EXPORT_DIR ?? join(dirname(notesDatabasePath(env)), 'exports');
}

/** The tasks' database, beside the notes' (an in-memory notes database gets in-memory tasks). */
function taskDatabasePath(notes: string): string {
  return notes === ':memory:' ? ':memory:' : `${notes}.tasks`;
}

/**
 * What a deployment may add to the notes app: a shared bus, rate-limit store, request-state
 * store and key when several instances serve it, its logger; `guarded`: every primitive has its access rule and needs a
 * caller (the authenticated mode, auth.ts).
 */
export type NotesAppOptions = Pick<AppOptions, 'bus' | 'rateLimitStore' | 'requestStateStore' | 'requestStateSecret' | 'logger' | 'dynamic'> & {
  guarded?: boolean;
};

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
  tasks: TaskStore = new SqliteTaskStore(taskDatabasePath(notesDatabasePath())),
  exportDir: string = notesExportDir(),
  { guarded = false, ...options }: NotesAppOptions = {},
): McpApp {
  const access = guarded
    ? {
        providers: [new GuardedNotesProvider(store), new GuardedNotesExport(store, exportDir)],
        requireAuth: true,
        impliedScopes: { 'notes:write': ['notes:read'] },
      }
    : { providers: [new NotesProvider(store), new NotesExport(store, exportDir)] };
  const app = createApp({
    name: 'mcpkit-notes',
    version: '0.1.0',
    title: 'Notes',
    instructions: 'Keeps notes. Search before creating duplicates; read notes://{id} for a whole note.',
    ...access,
    tasks: { store: tasks, pollIntervalMs: 500 },
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
