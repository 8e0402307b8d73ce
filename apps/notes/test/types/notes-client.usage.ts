// Compiled by notes.client-types.spec.ts with tsc --strict: each @ts-expect-error line must be an
// error (a wrong call), every other line must compile.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createClient, type CreateNoteOutput } from '../support/notes-client';

export async function use(sdk: Client): Promise<number> {
  // The official SDK's Client is a client the wrapper takes.
  const notes = createClient(sdk);
  const note: CreateNoteOutput = await notes.tools.create_note({ title: 'A', body: 'B', tags: ['c'] });
  await notes.tools.search_notes({ query: 'A' });
  await notes.tools.export_notes();
  await notes.templates.note({ id: note.id });
  await notes.prompts.summarize_notes({ topic: 'A' });

  // @ts-expect-error -- a wrong argument name: `titel` is no input of create_note
  await notes.tools.create_note({ titel: 'A', body: 'B' });
  // @ts-expect-error -- a required argument missing: body
  await notes.tools.create_note({ title: 'A' });
  // @ts-expect-error -- a wrong argument type: id is a number
  await notes.tools.delete_note({ id: 'one' });
  // @ts-expect-error -- a wrong element type: tags are strings
  await notes.tools.create_note({ title: 'A', body: 'B', tags: [1] });
  // @ts-expect-error -- no such tool
  await notes.tools.remove_note({ id: 1 });
  // @ts-expect-error -- the structured output has no field `name`
  note.name.toString();
  // @ts-expect-error -- a prompt argument is a string
  await notes.prompts.summarize_notes({ topic: 3 });
  // @ts-expect-error -- the template's variable is `id`
  await notes.templates.note({ noteId: 1 });
  return note.id;
}
