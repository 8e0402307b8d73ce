/** Loopback names every deployment may use without saying so: DNS-rebinding safe by default. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Host allow-list entries: a hostname (any port), `host:port`, or `*` for any host. */
export type HostAllowList = readonly string[];

function hostnameOf(hostHeader: string): string {
  const host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/** True when a `Host` header names an allowed host (DNS-rebinding protection). */
export function isAllowedHost(hostHeader: string | undefined, allowed: HostAllowList): boolean {
  if (allowed.includes('*')) return true;
  if (!hostHeader) return false;
  const host = hostHeader.trim().toLowerCase();
  const hostname = hostnameOf(host);
  return allowed.some((entry) => {
    const normalised = entry.toLowerCase();
    return normalised === host || normalised === hostname;
  });
}

/**
 * True when an `Origin` header is absent (not a browser) or allowed: by exact origin
 * (`https://app.example.com`), by hostname (any scheme and port), or `*`.
 */
export function isAllowedOrigin(origin: string | undefined, allowedOrigins: readonly string[], allowedHosts: HostAllowList): boolean {
  if (origin === undefined) return true;
  if (allowedOrigins.includes('*')) return true;
  const normalised = origin.trim().toLowerCase();
  if (allowedOrigins.some((entry) => entry.toLowerCase() === normalised)) return true;
  let url: URL;
  try {
    url = new URL(normalised);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  // An origin on an allowed host is as trusted as the host itself.
  return isAllowedHost(
    url.host,
    allowedHosts.filter((entry) => entry !== '*'),
  );
}
