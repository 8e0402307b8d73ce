// First: the modules loaded after it reuse their compiled code from the previous start (Node ≥ 22.1).
import '@mcpkit/core/compile-cache';
import { parseArgs } from 'node:util';
import type { McpHttpOptions } from '@mcpkit/http';
import { serveStdio } from '@mcpkit/stdio';
import { createNotesApp, notesDatabasePath, notesLimits } from './app';
import { notesAuthFromEnv, notesHttpAuth, type NotesAuth } from './auth';
import { startTelemetry } from './telemetry';
import { notesScaleOut } from './scale-out';
import { allowedHostsFromEnv, notesAllowedHosts } from './allowed-hosts';

const { values } = parseArgs({
  options: {
    stdio: { type: 'boolean', default: false },
    stateless: { type: 'boolean', default: process.env.MCP_HTTP_MODE === 'stateless' },
    port: { type: 'string', default: process.env.PORT ?? '3000' },
    host: { type: 'string', default: process.env.HOST ?? '127.0.0.1' },
  },
});

const database = notesDatabasePath();
let auth: NotesAuth | undefined;
let scaleOut: ReturnType<typeof notesScaleOut>;
let extraHosts: string[] | undefined;
try {
  // stdio takes no OAuth (its caller is whoever started the process): only HTTP is authenticated.
  auth = values.stdio ? undefined : notesAuthFromEnv();
  // NOTES_ALLOWED_HOSTS: names besides loopback the HTTP server answers to (a proxy's public name).
  extraHosts = values.stdio ? undefined : allowedHostsFromEnv();
  // REDIS_URL: several instances share sessions, streams, events and tasks (HTTP only).
  scaleOut = values.stdio ? undefined : notesScaleOut();
  // NOTES_MAX_TASKS, NOTES_MAX_TASKS_PER_OWNER, NOTES_MAX_EXPORTS: a bad value stops the start here, said plainly.
  notesLimits();
} catch (error) {
  process.stderr.write(`notes server could not start: ${(error as Error).message}\n`);
  process.exit(1);
}
const scale = scaleOut;
const app = createNotesApp(undefined, scale?.tasks, undefined, { ...scale?.app, guarded: auth !== undefined });

/** The resource server (authenticated mode) and the `Host` allow-list, when either is more than the default. */
async function guardOptions(): Promise<Pick<McpHttpOptions, 'auth' | 'allowedHosts'>> {
  const secured = auth && (await notesHttpAuth(auth));
  if (extraHosts === undefined) return { ...secured };
  const { LOOPBACK_HOSTS } = await import('@mcpkit/http');
  return { ...secured, allowedHosts: notesAllowedHosts(LOOPBACK_HOSTS, secured?.allowedHosts, extraHosts) };
}

function say(text: string): void {
  process.stderr.write(`${text}\n`);
}

if (values.stdio && !process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
  serveStdio(app);
  say(`mcpkit notes server on stdio (notes in ${database}). Client config: {"command": "node", "args": ["${__filename}", "--stdio"]}`);
} else if (values.stdio) {
  // With telemetry, the process exits only once the spans and metrics are sent.
  void startTelemetry().then((stopTelemetry) => {
    const server = serveStdio(app, { exitProcess: false });
    let exiting = false;
    const exit = () => {
      if (exiting) return;
      exiting = true;
      void stopTelemetry().finally(() => process.exit(0));
    };
    process.once('SIGTERM', () => void server.close().then(exit));
    process.once('SIGINT', () => void server.close().then(exit));
    void server.closed.then(exit);
    say(`mcpkit notes server on stdio (notes in ${database}), sending telemetry to ${process.env.OTEL_EXPORTER_OTLP_ENDPOINT}`);
  });
} else {
  // Loaded only for HTTP: a stdio server does not pay for Fastify at start-up. Telemetry starts
  // first, so the Fastify instrumentation sees the instance created after it.
  startTelemetry()
    .then(async (stopTelemetry) => ({
      stopTelemetry,
      server: await (
        await import('@mcpkit/fastify')
      ).serveHttp(app, {
        host: values.host,
        port: Number(values.port),
        sessions: !values.stateless,
        ...(await guardOptions()),
        ...(await scale?.ready().then(() => scale.http)),
      }),
    }))
    .then(({ server, stopTelemetry }) => {
      const stop = () =>
        void server
          .close()
          .then(() => scale?.close())
          .then(stopTelemetry)
          .then(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      say(`mcpkit notes server listening on ${server.url} (notes in ${database}${scale ? `; scale-out instance ${scale.instanceId}` : ''})`);
      if (auth) say(`  tokens required: from ${auth.issuer}, for ${auth.resource}`);
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
