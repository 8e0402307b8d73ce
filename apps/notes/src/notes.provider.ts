import { Prompt, Resource, ResourceTemplate, Tool, ToolError, type RequestContext } from '@mcpkit/core';
import {
  CreateNoteInput,
  DeleteNoteInput,
  DraftNoteForm,
  DraftNoteInput,
  NoteOutput,
  SaveDraftForm,
  SearchNotesInput,
  SummarizeArgs,
  UpdateNoteInput,
} from './dto';
import type { Note, NoteStore } from './note-store';

function describe(note: Note): string {
  const tags = note.tags.length > 0 ? ` [${note.tags.join(', ')}]` : '';
  return `#${note.id} ${note.title}${tags}`;
}

function render(note: Pick<Note, 'title' | 'body' | 'tags'> & { updatedAt?: string }): string {
  const updated = note.updatedAt ? `updated: ${note.updatedAt}\n` : '';
  return `# ${note.title}\n\n${note.body}\n\ntags: ${note.tags.join(', ') || '-'}\n${updated}`;
}

/** Tools, resources and a prompt over a note store. */
export class NotesProvider {
  constructor(private readonly store: NoteStore) {}

  @Tool({ name: 'create_note', title: 'Create note', description: 'Stores a new note and returns it', output: NoteOutput })
  create(input: CreateNoteInput): Note {
    return this.store.create(input.title, input.body, input.tags ?? []);
  }

  /**
   * Two questions, the second built from the first answer. Nothing is written before the last
   * answer: on 2026-07-28 the handler runs again for every round, so it asks first and acts after.
   */
  @Tool({ name: 'draft_note', title: 'Draft note', description: 'Asks the user to write a note, shows it back and saves it once confirmed' })
  async draft(input: DraftNoteInput, ctx: RequestContext): Promise<string> {
    const about = input.topic ? ` about ${input.topic}` : '';
    const draft = await ctx.elicit(`Write a note${about}.`, DraftNoteForm, { key: 'draft' });
    if (draft.action !== 'accept') return 'No note was written.';
    const tags = (draft.content.tags ?? '')
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag.length > 0);
    const preview = render({ title: draft.content.title, body: draft.content.body, tags });
    const confirm = await ctx.elicit(`Save this note?\n\n${preview}`, SaveDraftForm, { key: 'confirm' });
    if (confirm.action !== 'accept' || !confirm.content.save) return 'The draft was discarded.';
    return `Saved ${describe(this.store.create(draft.content.title, draft.content.body, tags))}.`;
  }

  @Tool({
    name: 'search_notes',
    title: 'Search notes',
    description: 'Finds notes whose title, body or tags contain the query',
    annotations: { readOnlyHint: true },
  })
  search(input: SearchNotesInput): string {
    const found = this.store.search(input.query, input.limit);
    if (found.length === 0) return `No notes match "${input.query}".`;
    return found.map(describe).join('\n');
  }

  @Tool({ name: 'update_note', title: 'Update note', description: 'Changes the title, body or tags of a note', annotations: { idempotentHint: true } })
  update(input: UpdateNoteInput): string {
    const note = this.store.update(input.id, input);
    if (!note) throw new ToolError(`There is no note #${input.id}.`);
    return `Updated ${describe(note)}`;
  }

  @Tool({ name: 'delete_note', title: 'Delete note', description: 'Deletes a note for good', annotations: { destructiveHint: true, idempotentHint: true } })
  delete(input: DeleteNoteInput): string {
    if (!this.store.delete(input.id)) throw new ToolError(`There is no note #${input.id}.`);
    return `Deleted note #${input.id}.`;
  }

  @Resource({ uri: 'notes://index', name: 'index', title: 'All notes', description: 'One line per note', mimeType: 'text/plain' })
  index(): string {
    const notes = this.store.all();
    return notes.length === 0 ? 'No notes yet.' : notes.map(describe).join('\n');
  }

  @ResourceTemplate({ uriTemplate: 'notes://{id}', name: 'note', title: 'A note', description: 'One note as Markdown', mimeType: 'text/markdown' })
  note({ id }: { id: string }): string | undefined {
    if (!/^[1-9][0-9]*$/.test(id)) return undefined;
    const note = this.store.get(Number(id));
    return note && render(note);
  }

  @Prompt({ name: 'summarize_notes', title: 'Summarise notes', description: 'Asks the model to summarise the notes, optionally on one topic' })
  summarize(args: SummarizeArgs): string {
    const notes = args.topic ? this.store.search(args.topic, 100) : this.store.all();
    if (notes.length === 0) return args.topic ? `There are no notes about "${args.topic}". Say so briefly.` : 'There are no notes yet. Say so briefly.';
    const about = args.topic ? ` about "${args.topic}"` : '';
    return `Summarise these ${notes.length} notes${about} in a few bullet points:\n\n${notes.map(render).join('\n---\n')}`;
  }
}
