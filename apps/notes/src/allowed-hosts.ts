// A Host allow-list entry: a hostname, `host:port`, an IPv6 literal in brackets, or `*`.
const HOST_ENTRY = /^(\*|\[[0-9a-f:.]+\](:\d+)?|[a-z0-9.-]+(:\d+)?)$/i;

/**
 * `NOTES_ALLOWED_HOSTS`: the names besides loopback that the server answers to in `Host` (a
 * proxy's public name), comma-separated: `notes.example.com`, `host:port`, `*` for any. Unset or
 * empty: undefined (loopback only). Throws for an entry that is no host name (a URL, a path).
 */
export function allowedHostsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  const hosts = (env.NOTES_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (hosts.length === 0) return undefined;
  const bad = hosts.find((entry) => !HOST_ENTRY.test(entry));
  if (bad !== undefined)
    throw new Error(`NOTES_ALLOWED_HOSTS: ${JSON.stringify(bad)} is not a host name (give names such as notes.example.com or host:8443, comma-separated)`);
  return hosts;
}

/** The `Host` allow-list: loopback, what the authenticated mode adds (its resource's host), and `NOTES_ALLOWED_HOSTS`. */
export function notesAllowedHosts(loopback: readonly string[], ...more: Array<readonly string[] | undefined>): string[] {
  return [...new Set([...loopback, ...more.flatMap((hosts) => hosts ?? [])])];
}
