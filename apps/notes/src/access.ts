import { RateLimit, RequireRoles, RequireScopes, type CallToolResult, type RateLimitOptions, type RequestContext } from '@mcpkit/core';
// Value imports: the overrides' parameter types are emitted as metadata (their input schemas).
import { CreateNoteInput, DeleteNoteInput, DraftNoteInput, SearchNotesInput, SummarizeArgs, UpdateNoteInput } from './dto';
import { ExportNotesInput, NotesExport } from './export.provider';
import { BoardNotesInput, NotesBoard, ShowBoardInput } from './board.provider';
import type { Note } from './note-store';
import { NotesProvider } from './notes.provider';

// The authenticated mode's rules, on the very primitives of the open mode: each override only
// adds its rule (decorators on an override apply to the inherited @Tool), so the two modes
// cannot drift apart. Without a token nothing is served at all (requireAuth in app.ts), so a
// primitive added later without a rule of its own still needs a caller.

/** Scopes of the authenticated mode, as the authorization server issues them. */
export const NOTES_SCOPES = ['notes:read', 'notes:write'] as const;

/**
 * Notes a subject may create a minute, through `create_note` and `draft_note` together (one
 * bucket per subject: a draft is a note too). A 2026-07-28 draft counts once, on its first round.
 */
const NOTE_CREATION: RateLimitOptions = {
  limit: 30,
  windowMs: 60_000,
  by: (ctx) => `notes-created:${ctx.auth?.issuer ?? ''}:${ctx.auth?.subject ?? ''}`,
};

/** The notes with their access rules: `notes:read` to read, `notes:write` to change, the role `admin` to delete. */
export class GuardedNotesProvider extends NotesProvider {
  @RequireScopes('notes:write')
  @RateLimit(NOTE_CREATION)
  override create(input: CreateNoteInput): Note {
    return super.create(input);
  }

  @RequireScopes('notes:write')
  @RateLimit(NOTE_CREATION)
  override draft(input: DraftNoteInput, ctx: RequestContext): Promise<string> {
    return super.draft(input, ctx);
  }

  @RequireScopes('notes:read')
  override search(input: SearchNotesInput): string {
    return super.search(input);
  }

  @RequireScopes('notes:write')
  override update(input: UpdateNoteInput): string {
    return super.update(input);
  }

  // A role cannot be asked for, so everyone else finds no such tool (hidden, not challenged).
  @RequireRoles('admin')
  override delete(input: DeleteNoteInput): string {
    return super.delete(input);
  }

  @RequireScopes('notes:read')
  override index(): string {
    return super.index();
  }

  @RequireScopes('notes:read')
  override note(params: { id: string }): string | undefined {
    return super.note(params);
  }

  @RequireScopes('notes:read')
  override summarize(args: SummarizeArgs): string {
    return super.summarize(args);
  }
}

/** `export_notes` changes no note but writes an archive on the server's disk: a write, not a read. */
export class GuardedNotesExport extends NotesExport {
  @RequireScopes('notes:write')
  override export(input: ExportNotesInput, ctx: RequestContext): Promise<string> {
    return super.export(input, ctx);
  }
}

/** The board reads notes (it adds them through `create_note`, which has its own rule). */
export class GuardedNotesBoard extends NotesBoard {
  @RequireScopes('notes:read')
  override board(): Promise<string> {
    return super.board();
  }

  @RequireScopes('notes:read')
  override show(input: ShowBoardInput): string {
    return super.show(input);
  }

  @RequireScopes('notes:read')
  override notes(input: BoardNotesInput): CallToolResult {
    return super.notes(input);
  }
}
