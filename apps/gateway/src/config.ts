/** What the gateway offers besides the mounted notes, read from the environment once at start-up. */
export interface GatewayConfig {
  /** The command that serves apps/everything on stdio, spawned (and restarted) by the proxy. */
  readonly everything: { readonly command: string; readonly args: readonly string[] };
  /** `GATEWAY_NOTES_URL`: a second notes server's MCP endpoint, proxied over Streamable HTTP; `GATEWAY_NOTES_TOKEN` its bearer token. */
  readonly remoteNotes?: { readonly url: string; readonly token?: string };
  /** `GATEWAY_REST_URL`: a REST service offered through its OpenAPI document, read from `GATEWAY_REST_OPENAPI_URL` (default `<GATEWAY_REST_URL>/openapi.json`). */
  readonly rest?: { readonly baseUrl: string; readonly document: string };
}

/** The prefixes each source is offered under: `notes_create_note`, `everything_echo`, `remote+notes://index`, `rest_getStock`. */
export const PREFIXES = { notes: 'notes', everything: 'everything', remoteNotes: 'remote', rest: 'rest' } as const;

/** An absolute http(s) URL from `env[name]`, or undefined when unset; throws naming the variable otherwise. */
function urlFromEnv(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) throw new Error(`${name} must be an absolute http(s) URL, got ${JSON.stringify(raw)}`);
  return raw;
}

/**
 * The gateway's sources from the environment; `everythingMain` is apps/everything's built entry
 * point. A malformed URL throws, naming its variable: a gateway that silently left a source out
 * would look healthy while its tools were missing.
 *
 * @example
 * const config = gatewayConfigFromEnv({ GATEWAY_NOTES_URL: 'http://127.0.0.1:3001/mcp' }, '/srv/everything/dist/main.js');
 */
export function gatewayConfigFromEnv(env: NodeJS.ProcessEnv, everythingMain: string): GatewayConfig {
  const notesUrl = urlFromEnv(env, 'GATEWAY_NOTES_URL');
  const token = env.GATEWAY_NOTES_TOKEN || undefined;
  if (token !== undefined && notesUrl === undefined) throw new Error('GATEWAY_NOTES_TOKEN is set without GATEWAY_NOTES_URL');
  const restUrl = urlFromEnv(env, 'GATEWAY_REST_URL');
  const documentUrl = urlFromEnv(env, 'GATEWAY_REST_OPENAPI_URL');
  if (documentUrl !== undefined && restUrl === undefined) throw new Error('GATEWAY_REST_OPENAPI_URL is set without GATEWAY_REST_URL');
  return {
    everything: { command: process.execPath, args: [everythingMain, 'stdio'] },
    ...(notesUrl === undefined ? {} : { remoteNotes: token === undefined ? { url: notesUrl } : { url: notesUrl, token } }),
    ...(restUrl === undefined ? {} : { rest: { baseUrl: restUrl, document: documentUrl ?? `${restUrl.replace(/\/+$/, '')}/openapi.json` } }),
  };
}
