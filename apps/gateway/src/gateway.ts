import { createApp, type AppOptions, type McpApp } from '@mcpkit/core';
import { fromOpenApi } from '@mcpkit/openapi';
import { proxy, type McpProxy } from '@mcpkit/proxy';
import { PREFIXES, type GatewayConfig } from './config';
import { UpstreamAccess } from './upstream-access';

/** What a gateway is made of: the notes app to mount, whether callers need a token, where its own log goes. */
export interface GatewayParts {
  /** The notes app, mounted under `notes` (made with `guarded` when the gateway is). */
  readonly notes: McpApp;
  /** The authenticated mode: no request is served without a caller (the notes' scopes and roles then apply to its tools). */
  readonly guarded: boolean;
  readonly logger?: AppOptions['logger'];
  /** Told when an upstream fails out of a call (lost, re-listed, reconnected); default the gateway's logger. */
  readonly onUpstreamError?: (upstream: string, error: Error) => void;
}

/** The gateway's app, and what stops its upstreams. */
export interface Gateway {
  readonly app: McpApp;
  /** The proxied upstreams, by prefix (their clients, reconnect state). */
  readonly upstreams: ReadonlyMap<string, McpProxy>;
  /** Stops the upstreams (the stdio child is stopped); the app's transport is the caller's to close. */
  close(): Promise<void>;
}

// What apps/everything offers that a gateway's clients cannot use through it: its input-required
// tests speak one era's rounds to its own client, and its reconnection test drops the stream.
const EVERYTHING_LEFT_OUT = [/^test_input_required_/, 'test_reconnection'];

/** What failed at start-up, named by the source: the error alone does not say which upstream it was. */
async function named<T>(source: string, starting: Promise<T>): Promise<T> {
  try {
    return await starting;
  } catch (error) {
    throw new Error(`${source}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * One endpoint for several servers: the notes app mounted under `notes`, apps/everything spawned
 * on stdio and proxied under `everything`, and, when configured, a second notes server proxied
 * over HTTP under `remote` and a REST service's operations (from its OpenAPI document) as
 * `rest_<operationId>`. Every call to any of them runs the gateway's pipeline first: its auth,
 * per-caller lists, audit line and spans; in the authenticated mode a proxied tool the upstream
 * calls destructive (a REST operation: `DELETE`) is the admins' alone (`UpstreamAccess`). An upstream that cannot be reached at start-up fails
 * the start; one that goes away later is reconnected by its proxy.
 *
 * @example
 * const gateway = await createGateway(gatewayConfigFromEnv(process.env, everythingMain), { notes: createNotesApp(), guarded: false });
 * const server = await serveHttp(gateway.app, { port: 3000 });
 */
export async function createGateway(config: GatewayConfig, parts: GatewayParts): Promise<Gateway> {
  const upstreams = new Map<string, McpProxy>();
  let closing = false;
  // An upstream's connection closing because the gateway closes it is no failure to report.
  const told = (upstream: string) => (error: Error) => {
    if (closing) return;
    if (parts.onUpstreamError) parts.onUpstreamError(upstream, error);
    else process.stderr.write(`gateway: upstream ${upstream}: ${error.message}\n`);
  };
  const close = async () => {
    closing = true;
    await Promise.allSettled([...upstreams.values()].map((upstream) => upstream.close()));
  };
  try {
    // The remote sources first: one that cannot be reached fails the start before a child is spawned.
    if (config.remoteNotes) {
      const { url, token } = config.remoteNotes;
      upstreams.set(
        PREFIXES.remoteNotes,
        await named(
          `the notes server at ${url} (GATEWAY_NOTES_URL)`,
          proxy(token === undefined ? { url } : { url, token }, { onError: told(PREFIXES.remoteNotes) }),
        ),
      );
    }
    const rest = config.rest
      ? await named(
          `the OpenAPI document at ${config.rest.document} (GATEWAY_REST_URL)`,
          fromOpenApi(config.rest.document, { baseUrl: config.rest.baseUrl, namePrefix: `${PREFIXES.rest}_`, timeoutMs: 10_000 }),
        )
      : [];
    upstreams.set(
      PREFIXES.everything,
      await named(
        'apps/everything (stdio)',
        proxy({ ...config.everything, stderr: 'inherit' }, { exclude: EVERYTHING_LEFT_OUT, onError: told(PREFIXES.everything) }),
      ),
    );
    // Who may call what the gateway proxies: the upstreams' own rules know nothing of its callers,
    // nor does the REST service (it gets the gateway's requests, never the caller's token), whose
    // DELETE operations are as destructive as a proxied delete_note.
    const access = new UpstreamAccess([...upstreams.keys(), ...(config.rest ? [PREFIXES.rest] : [])]);
    const app = createApp({
      name: 'mcpkit-gateway',
      version: '0.1.0',
      title: 'Gateway',
      instructions:
        'One endpoint for several servers: notes_* (notes), everything_* (the conformance server), remote_* (another notes server), rest_* (a REST API).',
      providers: rest,
      imports: [{ app: parts.notes, prefix: PREFIXES.notes }, ...[...upstreams].map(([prefix, upstream]) => ({ app: upstream.app, prefix }))],
      subscriptions: true,
      ...(parts.guarded ? { requireAuth: true, impliedScopes: { 'notes:write': ['notes:read'] }, guards: [access] } : {}),
      ...(parts.logger ? { logger: parts.logger } : {}),
    });
    access.serve(app);
    return { app, upstreams, close };
  } catch (error) {
    await close();
    throw error;
  }
}
