/** The scheme every skill file is served under. */
export const SKILL_SCHEME = 'skill://';

/** `skill://` + the segments, each percent-encoded: a name with `/`, `%` or `..` cannot change the path. */
export function skillUri(segments: readonly string[]): string {
  return (
    SKILL_SCHEME + segments.map((segment) => (segment === '.' || segment === '..' ? segment.replaceAll('.', '%2E') : encodeURIComponent(segment))).join('/')
  );
}

/** The one spelling of a URI (WHATWG), or undefined when it does not parse: lookups are keyed on it. */
export function canonicalUri(uri: string): string | undefined {
  try {
    return new URL(uri).href;
  } catch {
    return undefined;
  }
}

/** Code-unit order: the one order of skills, their files and directory children. */
export function compareUris(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
