/** A body cut off at the bound: it was not read past it. */
export const TOO_LARGE = Symbol('too large');

/**
 * Reads a response body up to `maxBytes` and no further: a `Content-Length` past the bound is
 * refused before a byte is read, and a body that grows past it is cancelled mid-stream.
 */
export async function readBounded(response: Response, maxBytes: number): Promise<Uint8Array | typeof TOO_LARGE> {
  const declared = Number(response.headers.get('content-length'));
  if (response.body === null) return new Uint8Array(0);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body.cancel().catch(() => undefined);
    return TOO_LARGE;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return TOO_LARGE;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}
