/** A body read whole, or why not. */
export type BoundedBody = { ok: true; text: string } | { ok: false; why: string };

/**
 * A response body as text, read up to `maxBytes`: a longer one is not read further (its
 * `Content-Length` alone may say so), and the read fails.
 */
export async function readBounded(response: Response, maxBytes: number, signal: AbortSignal): Promise<BoundedBody> {
  const tooLarge: BoundedBody = { ok: false, why: `the answer is over ${maxBytes} bytes (maxMessageBytes)` };
  if (response.body === null) return { ok: true, text: '' };
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body.cancel().catch(() => undefined);
    return tooLarge;
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > maxBytes || signal.aborted) {
        await response.body.cancel().catch(() => undefined);
        return signal.aborted ? { ok: false, why: 'the request ended' } : tooLarge;
      }
      parts.push(chunk);
    }
  } catch (error) {
    return { ok: false, why: `the answer broke off (${error instanceof Error ? error.message : String(error)})` };
  }
  return { ok: true, text: Buffer.concat(parts, size).toString('utf8') };
}
