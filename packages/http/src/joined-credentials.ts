// RFC 9110 §5.6.2: the characters of a token (an auth-scheme, an auth-param's name).
const TOKEN_CHAR = /[!#$%&'*+.^_`|~0-9A-Za-z-]/;

/**
 * The credentials in an `Authorization` value a web `Headers` object joined: it joins repeated
 * lines with ", ", and a comma also separates the auth-params of one credential (`Digest
 * realm="a", nonce="b"`), so the commas alone cannot tell. After a comma outside a quoted string,
 * a token followed by `=` is an auth-param of the same credential; any other token starts the
 * next credential (an auth-scheme: `Bearer a, Bearer b` is two). Empty list elements are skipped.
 *
 * @example
 * joinedCredentials('Bearer a, Bearer b'); // ['Bearer a', 'Bearer b']
 * joinedCredentials('Digest realm="a, b", nonce="c"'); // ['Digest realm="a, b", nonce="c"']
 */
export function joinedCredentials(value: string): string[] {
  const credentials: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    if (quoted) {
      if (char === '\\') i++;
      else if (char === '"') quoted = false;
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',' && startsCredential(value, i + 1)) {
      const credential = value.slice(start, i).trim();
      if (credential !== '') credentials.push(credential);
      start = i + 1;
    }
  }
  const last = value.slice(start).trim();
  if (last !== '' || credentials.length === 0) credentials.push(last);
  return credentials;
}

/** Whether the text at `from` (just after a comma) begins a credential, not an auth-param nor an empty element. */
function startsCredential(value: string, from: number): boolean {
  let i = from;
  while (value[i] === ' ' || value[i] === '\t') i++;
  const tokenStart = i;
  while (i < value.length && TOKEN_CHAR.test(value[i])) i++;
  if (i === tokenStart) return false;
  while (value[i] === ' ' || value[i] === '\t') i++;
  return value[i] !== '=';
}
