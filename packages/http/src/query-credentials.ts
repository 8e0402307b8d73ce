// Query parameters that carry credentials (RFC 6750 §2.3 and its cousins).
const SECRET_PARAMETERS: ReadonlySet<string> = new Set(['access_token', 'refresh_token', 'id_token', 'token', 'client_secret']);

/**
 * A query parameter's name as the most lenient parser on the way would read it: percent-decoded
 * (encoded twice over, some stack decodes it twice), any array suffix (`[]`, `[0]`) dropped,
 * lower-case.
 */
function parameterName(key: string): string {
  let name = key;
  for (let round = 0; round < 3 && name.includes('%'); round++) {
    try {
      name = decodeURIComponent(name);
    } catch {
      break;
    }
  }
  const bracket = name.indexOf('[');
  return (bracket === -1 ? name : name.slice(0, bracket)).trim().toLowerCase();
}

/** Whether a parsed query names `access_token` in any spelling: any case, an array form, percent-encoded. */
export function namesAccessToken(query: Readonly<Record<string, unknown>>): boolean {
  for (const key in query) if (parameterName(key) === 'access_token') return true;
  return false;
}

/**
 * A request URL with the values of its credential parameters (`access_token`, `refresh_token`,
 * `id_token`, `token`, `client_secret`, in any of the spellings `namesAccessToken` knows)
 * censored, for a log line.
 *
 * @example
 * censorQueryCredentials('/mcp?ACCESS_TOKEN=abc&x=1'); // '/mcp?ACCESS_TOKEN=[Redacted]&x=1'
 */
export function censorQueryCredentials(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const hash = url.indexOf('#', query);
  const end = hash === -1 ? url.length : hash;
  const parameters = url.slice(query + 1, end).split('&');
  let censored = false;
  for (let i = 0; i < parameters.length; i++) {
    const equals = parameters[i].indexOf('=');
    const name = equals === -1 ? parameters[i] : parameters[i].slice(0, equals);
    if (equals !== -1 && SECRET_PARAMETERS.has(parameterName(name.replace(/\+/g, ' ')))) {
      parameters[i] = `${name}=[Redacted]`;
      censored = true;
    }
  }
  return censored ? `${url.slice(0, query + 1)}${parameters.join('&')}${url.slice(end)}` : url;
}
