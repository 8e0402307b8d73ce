import { parse as parseYaml } from 'yaml';
import { fetchSameOrigin, RedirectRefused } from './follow-redirects';
import { readBounded, TOO_LARGE } from './read-bounded';

/** The largest document (or document a `$ref` names) read from a URL: the biggest public ones are a few MiB. */
const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;
const DOCUMENT_TIMEOUT_MS = 30_000;
const ACCEPT = 'application/json, application/yaml;q=0.9, */*;q=0.8';

/** The bytes at a URL, redirects followed within its origin only, bounded in size and time. */
async function download(href: string): Promise<Uint8Array> {
  const url = new URL(href);
  const signal = AbortSignal.timeout(DOCUMENT_TIMEOUT_MS);
  const response = await fetchSameOrigin(fetch, 'GET', { url, headers: new Headers({ accept: ACCEPT }) }, signal).catch((error: Error) => {
    const why = error instanceof RedirectRefused ? error.message : ((error.cause as Error | undefined)?.message ?? error.message);
    throw new Error(`fromOpenApi: cannot read ${href}: ${why}.`);
  });
  const bytes = await readBounded(response, MAX_DOCUMENT_BYTES);
  if (bytes === TOO_LARGE) throw new Error(`fromOpenApi: the document at ${href} is larger than ${MAX_DOCUMENT_BYTES} bytes.`);
  if (!response.ok) throw new Error(`fromOpenApi: cannot read ${href}: it answered ${response.status}.`);
  return bytes;
}

/**
 * A document read from its URL with fetch, not by the `$ref` resolver: the resolver refuses
 * loopback and private addresses (right for a `$ref` a document names), but the URL given here
 * is the app's own choice, and a service beside the server (`http://127.0.0.1:3000/openapi.json`)
 * is the common case.
 */
export async function readUrl(href: string): Promise<unknown> {
  return parseYaml(new TextDecoder().decode(await download(href)));
}

/**
 * The `$ref` resolver (`@apidevtools/json-schema-ref-parser`'s http resolver options) for a
 * document read from `href`: it reads URLs of the document's own origin only, redirects too.
 * The resolver's own check refuses private addresses by the name's text alone (a public name
 * can resolve to 169.254.169.254, a public URL can redirect there) and fetches any size; what a
 * `$ref` reads is published in the tools' schemas, so a document could read out what only this
 * server can reach.
 */
export function sameOriginRefs(href: string): { order: number; canRead: (file: { url: string }) => boolean; read: (file: { url: string }) => Promise<Buffer> } {
  const { origin } = new URL(href);
  return {
    order: 200,
    canRead: (file) => /^https?:\/\//i.test(file.url) && new URL(file.url).origin === origin,
    read: async (file) => Buffer.from(await download(file.url)),
  };
}
