import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildManifest, formatManifest } from '@mcpkit/cli';
import { createNotesApp } from '../src/app';
import { NoteStore } from '../src/note-store';
import { SqliteTaskStore } from '../src/sqlite-task-store';

// The notes' contract is checked in, so a pull request shows how it changes (and CI can diff it
// against the base branch, docs/contract.md). It must be the manifest of the code as it is.
describe('apps/notes/mcp-manifest.json', () => {
  it('is the manifest of the notes app as it is now', () => {
    const current = formatManifest(buildManifest(createNotesApp(new NoteStore(':memory:'), new SqliteTaskStore(':memory:'), tmpdir())));
    const checkedIn = readFileSync(join(__dirname, '..', 'mcp-manifest.json'), 'utf8');
    if (checkedIn !== current)
      throw new Error(
        'apps/notes/mcp-manifest.json is stale: the notes app publishes another surface now. Regenerate it and commit it: ' +
          'pnpm --filter @mcpkit/app-notes... build && pnpm --filter @mcpkit/app-notes manifest',
      );
  });
});
