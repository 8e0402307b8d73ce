import { buildServerCard, type McpApp, type ServerCardOptions } from '@mcpkit/core';
import { LOOPBACK_HOSTS } from './host-origin';
import { headerValue, type HttpBodyResult, type HttpHeaders } from './http-result';
import { bodyResult, FAULTS, faultResult } from './transport-faults';

/** `serverCard` of the HTTP options: where the card says the endpoint is, and what it names. */
export interface ServerCardEndpointOptions extends ServerCardOptions {
  /**
   * The endpoint's public URL, as clients reach it (behind a proxy: its URL). Default: from the
   * request's Host, `http://` on a loopback name, else `https://`.
   */
  url?: string;
}

const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS' };

/**
 * `GET <endpoint>/server-card` (SEP-2127, draft, experimental): the app's Server Card, public
 * like the resource metadata: any origin may read it, no token is asked.
 */
export class ServerCardRoute {
  readonly path: string;
  private readonly fixedBody: string | undefined;

  constructor(
    private readonly app: McpApp,
    private readonly endpoint: string,
    private readonly options: ServerCardEndpointOptions,
  ) {
    this.path = `${endpoint.replace(/\/$/, '')}/server-card`;
    // With a configured URL the card never changes: written once.
    this.fixedBody = options.url === undefined ? undefined : JSON.stringify(buildServerCard(app, options.url, options));
  }

  answer(method: string, headers: HttpHeaders): HttpBodyResult {
    if (method === 'OPTIONS') return bodyResult('noContent', CORS);
    if (method !== 'GET' && method !== 'HEAD') return faultResult(FAULTS.methodNotAllowed('GET, OPTIONS'));
    const body = this.fixedBody ?? JSON.stringify(buildServerCard(this.app, this.urlFrom(headers), this.options));
    return bodyResult('ok', { ...CORS, 'content-type': 'application/json', 'cache-control': 'max-age=300' }, body);
  }

  private urlFrom(headers: HttpHeaders): string {
    const host = headerValue(headers.host) ?? 'localhost';
    const hostname = host.replace(/:\d+$/, '');
    return `${LOOPBACK_HOSTS.includes(hostname) ? 'http' : 'https'}://${host}${this.endpoint}`;
  }
}
