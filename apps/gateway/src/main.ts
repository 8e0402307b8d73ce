// First: the modules loaded after it reuse their compiled code from the previous start (Node ≥ 22.1).
import '@mcpkit/core/compile-cache';
import { createNotesApp, notesDatabasePath, notesLimits } from '@mcpkit/app-notes/dist/app';
import { notesAuthFromEnv, notesHttpAuth, type NotesAuth } from '@mcpkit/app-notes/dist/auth';
import { startTelemetry } from '@mcpkit/app-notes/dist/telemetry';
import { gatewayConfigFromEnv, PREFIXES, type GatewayConfig } from './config';
import { createGateway } from './gateway';

function say(text: string): void {
  process.stderr.write(`${text}\n`);
}

let config: GatewayConfig;
let auth: NotesAuth | undefined;
try {
  config = gatewayConfigFromEnv(process.env, require.resolve('@mcpkit/app-everything/dist/main.js'));
  // The notes' authenticated mode, under the gateway's own variables (GATEWAY_AUTH_ISSUER, GATEWAY_AUTH_RESOURCE).
  auth = notesAuthFromEnv(process.env, 'GATEWAY');
  // NOTES_MAX_TASKS and the like: a bad value stops the start here, said plainly.
  notesLimits();
} catch (error) {
  say(`gateway could not start: ${(error as Error).message}`);
  process.exit(1);
}

// Telemetry first, so the Fastify instrumentation sees the instance created after it; Fastify is
// loaded only then.
startTelemetry()
  .then(async (stopTelemetry) => {
    const gateway = await createGateway(config, {
      notes: createNotesApp(undefined, undefined, undefined, { guarded: auth !== undefined }),
      guarded: auth !== undefined,
    });
    try {
      const { serveHttp } = await import('@mcpkit/fastify');
      const server = await serveHttp(gateway.app, {
        host: process.env.HOST ?? '127.0.0.1',
        port: Number(process.env.PORT ?? 3000),
        ...(auth && (await notesHttpAuth(auth, 'mcpkit gateway'))),
      });
      return { server, gateway, stopTelemetry };
    } catch (error) {
      await gateway.close();
      throw error;
    }
  })
  .then(({ server, gateway, stopTelemetry }) => {
    const stop = () =>
      void server
        .close()
        .then(() => gateway.close())
        .then(stopTelemetry)
        .then(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    say(`mcpkit gateway listening on ${server.url} (notes in ${notesDatabasePath()})`);
    if (auth) say(`  tokens required: from ${auth.issuer}, for ${auth.resource}`);
    const offered = [`${PREFIXES.notes}_* (notes, mounted)`, `${PREFIXES.everything}_* (apps/everything on stdio)`];
    if (config.remoteNotes) offered.push(`${PREFIXES.remoteNotes}_* (notes over HTTP)`);
    if (config.rest) offered.push(`${PREFIXES.rest}_* (the REST service's operations)`);
    say(`  offers ${offered.join(', ')}`);
  })
  .catch((error: unknown) => {
    say(`gateway could not start: ${(error as Error).message}`);
    process.exit(1);
  });
