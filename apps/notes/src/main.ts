// First: the modules loaded after it reuse their compiled code from the previous start (Node ≥ 22.1).
import '@mcpkit/core/compile-cache';
import { parseArgs } from 'node:util';
import { serveStdio } from '@mcpkit/stdio';
import { createNotesApp, notesDatabasePath } from './app';

const { values } = parseArgs({
  options: {
    stdio: { type: 'boolean', default: false },
    stateless: { type: 'boolean', default: process.env.MCP_HTTP_MODE === 'stateless' },
    port: { type: 'string', default: process.env.PORT ?? '3000' },
    host: { type: 'string', default: process.env.HOST ?? '127.0.0.1' },
  },
});

const database = notesDatabasePath();
const app = createNotesApp();

function say(text: string): void {
  process.stderr.write(`${text}\n`);
}

if (values.stdio) {
  serveStdio(app);
  say(`mcpkit notes server on stdio (notes in ${database}). Client config: {"command": "node", "args": ["${__filename}", "--stdio"]}`);
} else {
  // Loaded only for HTTP: a stdio server does not pay for Fastify at start-up.
  import('@mcpkit/fastify')
    .then(({ serveHttp }) => serveHttp(app, { host: values.host, port: Number(values.port), sessions: !values.stateless }))
    .then((server) => {
      const stop = () => void server.close().then(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      say(`mcpkit notes server listening on ${server.url} (notes in ${database})`);
      say(`  Claude Code:  claude mcp add --transport http notes ${server.url}`);
      say(`  VS Code:      .vscode/mcp.json  {"servers": {"notes": {"type": "http", "url": "${server.url}"}}}`);
      say(`  Cursor:       .cursor/mcp.json  {"mcpServers": {"notes": {"url": "${server.url}"}}}`);
      say(`  Claude Desktop takes no URLs in its config file; use stdio: {"mcpServers": {"notes": {"command": "node", "args": ["${__filename}", "--stdio"]}}}`);
    })
    .catch((error: unknown) => {
      say(`notes server could not start: ${(error as Error).message}`);
      process.exit(1);
    });
}
