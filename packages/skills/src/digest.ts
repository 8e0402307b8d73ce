import { createHash } from 'node:crypto';

/** `sha256:<64 lowercase hex>`, the digest format of the extension. */
export function sha256Of(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}
