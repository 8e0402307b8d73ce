import { serveStdio } from '@mcpkit/stdio';
import { createNotesApp, notesDatabasePath } from './app';

const path = notesDatabasePath();
serveStdio(createNotesApp());
process.stderr.write(
  `mcpkit notes server on stdio (notes in ${path}). Connect a client with: command "node", args ["${__filename}"]; or talk JSON-RPC on this terminal.\n`,
);
