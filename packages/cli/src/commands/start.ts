import type { McpApp } from '@mcpkit/core';
import { serveStdio } from '@mcpkit/stdio';
import { CliError } from '../cli-error';
import { loadApp, resolveEntry } from '../load-app';
import { err } from '../output';
import { applyServerInput, parseEnvPairs } from '../server-input';
import type { SessionStore } from '@mcpkit/fastify';
import { handedOverSessions, isDevChild, report, serveForDev } from './dev-child';

export interface StartOptions {
  stdio?: boolean;
  http?: boolean;
  port?: string;
  host?: string;
  /** False with `--stateless`: HTTP without sessions. */
  sessions?: boolean;
  /** The export that is the app (or returns it). */
  export?: string;
  /** `--env K=V`, repeated: set before the app module loads. */
  env?: string[];
  /** After `--`: the app's arguments, its `process.argv.slice(2)`. */
  args?: string[];
}

/**
 * `mcpkit start [entry] [--env K=V]… [-- args…]`: serves a built app over stdio (default) or
 * Streamable HTTP. The app module loads with the environment and arguments it was given, as
 * under `node dist/app.js args…`.
 */
export async function start(entry: string | undefined, options: StartOptions): Promise<void> {
  if (options.stdio && options.http)
    throw new CliError('Choose one transport: --stdio or --http', 'mcpkit start --stdio (the default) or mcpkit start --http --port 3000.');
  const path = resolveEntry(entry);
  applyServerInput(path, { env: parseEnvPairs(options.env), args: options.args ?? [] });
  const app = loadApp(path, { export: options.export });
  // Under `mcpkit dev`: serve once the dev process hands over, continuing the client's session.
  const dev = isDevChild();
  if (!options.http) {
    if (dev)
      serveForDev(({ restore }) => serveStdio(app, { restore, announceListChanges: true, onSnapshot: (snapshot) => report({ type: 'snapshot', snapshot }) }));
    else serveStdio(app);
    return;
  }
  if (dev) serveForDev(({ sessions }) => serveOverHttp(app, options, handedOverSessions(sessions)));
  else await serveOverHttp(app, options);
}

async function serveOverHttp(app: McpApp, options: StartOptions, sessionStore?: SessionStore): Promise<void> {
  const port = Number(options.port ?? process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliError(`Invalid port: ${options.port}`, 'Give a port from 0 to 65535 (0 picks a free one).');
  // Loaded only for HTTP: a stdio server does not pay for Fastify at start-up.
  const { serveHttp } = await import('@mcpkit/fastify');
  const server = await serveHttp(app, { host: options.host ?? process.env.HOST ?? '127.0.0.1', port, sessions: options.sessions !== false, sessionStore });
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  err(`${app.info.name} listening on ${server.url}`);
}
