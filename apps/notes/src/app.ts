import { join } from 'node:path';
import { createApp, type McpApp } from '@mcpkit/core';
import { NoteStore } from './note-store';
import { NotesProvider } from './notes.provider';

/** Where notes live: `NOTES_DB`, else `data/notes.db` in this app's folder. */
export function notesDatabasePath(env: NodeJS.ProcessEnv = process.env): string {
  return env.NOTES_DB ?? join(__dirname, '..', 'data', 'notes.db');
}

/** Builds the notes app over a store. Side-effect free apart from opening the database. */
export function createNotesApp(store: NoteStore = new NoteStore(notesDatabasePath())): McpApp {
  return createApp({
    name: 'mcpkit-notes',
    version: '0.1.0',
    title: 'Notes',
    instructions: 'Keeps notes. Search before creating duplicates; read notes://{id} for a whole note.',
    providers: [new NotesProvider(store)],
  });
}
