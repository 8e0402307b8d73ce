import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppView, Field, Tool } from '@mcpkit/core';
import type { CallToolResult } from '@mcpkit/core';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import type { Note, NoteStore } from './note-store';

/** The board's URI: the view `show_board` opens and `board_notes` serves. */
export const BOARD_VIEW = 'ui://notes/board';

/**
 * The board's HTML, built by scripts/build-view.js (`pnpm build`) from view/: dist/board.html,
 * found from src/ (tests) and from dist/ (the built server) alike.
 */
export const BOARD_HTML = join(__dirname, '..', 'dist', 'board.html');

export class ShowBoardInput {
  @Field({ description: 'Open the board on this search (default: every note)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  query?: string;
}

export class BoardNotesInput {
  @Field({ description: 'Only notes whose title, body or tags contain this text' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  query?: string;

  @Field({ description: 'Most notes to return', default: 100 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(500)
  limit: number = 100;
}

function line(note: Note): string {
  const tags = note.tags.length > 0 ? ` [${note.tags.join(', ')}]` : '';
  return `#${note.id} ${note.title}${tags}`;
}

/**
 * The notes board, an MCP Apps view: a host with the extension shows it when `show_board` is
 * called (a client without it gets the same notes as text). The view lists and searches through
 * `board_notes`, which only it may call, and adds notes with `create_note`.
 */
export class NotesBoard {
  private html: Promise<string> | undefined;

  constructor(private readonly store: NoteStore) {}

  @AppView({
    uri: BOARD_VIEW,
    name: 'board',
    title: 'Notes board',
    description: 'The notes, a search box and a form that adds a note',
    prefersBorder: true,
  })
  board(): Promise<string> {
    // Read once; a failed read is tried again on the next request.
    this.html ??= readFile(BOARD_HTML, 'utf8').catch((error: unknown) => {
      this.html = undefined;
      throw new Error(`the notes board is not built (${BOARD_HTML}): run pnpm build`, { cause: error });
    });
    return this.html;
  }

  @Tool({
    name: 'show_board',
    title: 'Show notes board',
    description: 'Shows the notes on a board where the user can search them and add one; answers the notes as text too',
    annotations: { readOnlyHint: true },
    ui: { view: BOARD_VIEW },
  })
  show(input: ShowBoardInput): string {
    const notes = input.query ? this.store.search(input.query, 100) : this.store.all();
    const about = input.query ? ` matching "${input.query}"` : '';
    if (notes.length === 0) return input.query ? `No notes match "${input.query}".` : 'No notes yet.';
    return `${notes.length} ${notes.length === 1 ? 'note' : 'notes'}${about}:\n${notes.map(line).join('\n')}`;
  }

  @Tool({
    name: 'board_notes',
    title: 'Notes for the board',
    description: 'The notes the board shows, searched or not',
    annotations: { readOnlyHint: true },
    ui: { view: BOARD_VIEW, visibility: ['app'] },
  })
  notes(input: BoardNotesInput): CallToolResult {
    const notes = input.query ? this.store.search(input.query, input.limit) : this.store.all().slice(0, input.limit);
    return {
      content: [{ type: 'text', text: notes.map(line).join('\n') || 'No notes.' }],
      structuredContent: { notes: notes.map(({ id, title, body, tags, updatedAt }) => ({ id, title, body, tags, updatedAt })) },
    };
  }
}
