import { isAllowedHost, isAllowedOrigin, type HostAllowList } from './host-origin';

/**
 * One endpoint's `Host` and `Origin` checks, each keeping its last header's verdict: a client
 * sends the same `Host` (and a browser the same `Origin`) with every request, so the header is
 * parsed once per client rather than on every request. Any other header is checked afresh.
 */
export class HostOriginCheck {
  private lastHost: string | undefined = undefined;
  private lastHostAllowed = false;
  private lastOrigin: string | undefined = undefined;
  private lastOriginAllowed = false;

  private readonly allowedHosts: HostAllowList;
  private readonly allowedOrigins: readonly string[];

  /** The lists are copied: a verdict kept must not go stale when a caller's array changes. */
  constructor(allowedHosts: HostAllowList, allowedOrigins: readonly string[]) {
    this.allowedHosts = [...allowedHosts];
    this.allowedOrigins = [...allowedOrigins];
  }

  /** `isAllowedHost` against this endpoint's hosts. */
  host(header: string | undefined): boolean {
    if (header === undefined) return isAllowedHost(header, this.allowedHosts);
    if (header !== this.lastHost) {
      this.lastHostAllowed = isAllowedHost(header, this.allowedHosts);
      this.lastHost = header;
    }
    return this.lastHostAllowed;
  }

  /** `isAllowedOrigin` against this endpoint's origins and hosts (no `Origin`: allowed). */
  origin(header: string | undefined): boolean {
    if (header === undefined) return true;
    if (header !== this.lastOrigin) {
      this.lastOriginAllowed = isAllowedOrigin(header, this.allowedOrigins, this.allowedHosts);
      this.lastOrigin = header;
    }
    return this.lastOriginAllowed;
  }
}
