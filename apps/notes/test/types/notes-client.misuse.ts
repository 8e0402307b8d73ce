// Compiled by notes.client-types.spec.ts, which expects exactly these errors: it shows that the
// compiler is really checking the calls (a tsc that checked nothing would pass the usage file).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createClient } from '../support/notes-client';

export async function misuse(sdk: Client): Promise<void> {
  const notes = createClient(sdk);
  await notes.tools.create_note({ titel: 'A', body: 'B' });
  await notes.tools.delete_note({ id: 'one' });
}
