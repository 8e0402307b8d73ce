// jose is ESM-only: loaded on first use (require(esm) from this CommonJS package), so a server
// that verifies no JWT never loads it.
type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });
let jose: Promise<Jose> | undefined;
export const loadJose = (): Promise<Jose> => (jose ??= import('jose'));

type LocalKeySet = ReturnType<Jose['createLocalJWKSet']>;
type KeyLookup = (header: Parameters<LocalKeySet>[0], token: Parameters<LocalKeySet>[1]) => Promise<Awaited<ReturnType<LocalKeySet>>>;

// A key set is a handful of public keys: anything bigger is not one.
const MAX_JWKS_BYTES = 256 * 1024;

/** Options of a `JwksCache`. */
export interface JwksCacheOptions {
  /** Where the key set is: its URL, found once (discovery) and then remembered. */
  url: () => Promise<string>;
  /** Least time between two fetches, whatever their outcome, in ms. */
  cooldownMs: number;
  /** Age past which the key set is fetched again, in ms. */
  maxAgeMs: number;
  /** How long one fetch may take, in ms. */
  timeoutMs: number;
  /** The clock, in ms (default `performance.now`); tests pass their own. */
  now?: () => number;
}

// After a failed fetch, the next is tried this soon, then twice as late each time, up to the cooldown.
const FIRST_BACKOFF_MS = 1_000;

/** The key set as JSON, read up to `MAX_JWKS_BYTES`. */
async function fetchKeySet(url: string, timeoutMs: number): Promise<{ keys: unknown[] }> {
  const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`the JWKS endpoint answered ${response.status}`);
  }
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error('the JWKS answer has no body');
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > MAX_JWKS_BYTES) {
      await reader.cancel();
      throw new Error('the JWKS answer is too large');
    }
    chunks.push(value);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Error('the JWKS answer is not JSON');
  }
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { keys?: unknown }).keys)) throw new Error('the JWKS answer has no keys array');
  return body as { keys: unknown[] };
}

/**
 * The issuer's public keys. After a success they are fetched again at most once per cooldown
 * (an unknown `kid` then is just unknown). After a failure (a cold cache, a stale one, or an
 * unknown `kid` while the authorization server is down) the next fetch waits 1 s, then 2, 4 …
 * doubling up to the cooldown while fetches keep failing; in between, every lookup fails at
 * once with the last fetch's error (a `503` upstream), so a flood of requests makes no flood of
 * fetches, and one failed fetch at start-up costs a second of `503`s, not a cooldown's.
 * Concurrent lookups share one fetch.
 */
export class JwksCache {
  private keys: { lookup: LocalKeySet; fetchedAt: number } | undefined;
  /** `now()` of the last fetch started, successful or not. */
  private lastAttempt = -Infinity;
  /** The last fetch's error, while it is the last outcome. */
  private failure: unknown;
  /** Fetches failed in a row since the last success. */
  private failures = 0;
  private loading: Promise<void> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: JwksCacheOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /** Least time from the last fetch to the next: the backoff after failures, else the cooldown. */
  private get pause(): number {
    const { cooldownMs } = this.options;
    return this.failures === 0 ? cooldownMs : Math.min(cooldownMs, FIRST_BACKOFF_MS * 2 ** Math.min(this.failures - 1, 30));
  }

  /** A key lookup for `jwtVerify`. */
  readonly lookup: KeyLookup = async (header, token) => {
    if (this.keys === undefined || this.now() - this.keys.fetchedAt > this.options.maxAgeMs) await this.refresh();
    try {
      return await this.keys!.lookup(header, token);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw error;
      // A kid we do not know: perhaps a rotation, refetched once per cooldown. While the last
      // fetch failed, we cannot tell a new key from a made-up one: 503, not 401.
      await this.refresh(error);
      return this.keys!.lookup(header, token);
    }
  };

  /** Fetches now if the cooldown allows, else fails with the last failure (or `otherwise`). */
  private async refresh(otherwise?: unknown): Promise<void> {
    if (this.loading !== undefined) return this.loading;
    if (this.now() - this.lastAttempt < this.pause) {
      if (this.failure !== undefined) throw this.failure;
      if (otherwise !== undefined) throw otherwise;
      // Fresh enough: within the cooldown of a good fetch (a stale one is refetched after it).
      return;
    }
    this.lastAttempt = this.now();
    this.loading = (async () => {
      try {
        const { createLocalJWKSet } = await loadJose();
        const keySet = await fetchKeySet(await this.options.url(), this.options.timeoutMs);
        this.keys = { lookup: createLocalJWKSet(keySet as Parameters<Jose['createLocalJWKSet']>[0]), fetchedAt: this.now() };
        this.failure = undefined;
        this.failures = 0;
      } catch (error) {
        this.failure = error;
        this.failures++;
        throw error;
      }
    })().finally(() => (this.loading = undefined));
    return this.loading;
  }
}
