import type { EraName } from '../wire/frame';

/**
 * @deprecated use `'legacy'`. The legacy era's old name, still accepted where an era is given
 * (`classify`, `errorResponse`) with a deprecation warning; removed in the next release.
 * Frames and traces carry only `EraName`.
 */
export type DeprecatedEraName = 'handshake';

let warned = false;

/**
 * The era an input names, in today's words: `'handshake'`, the legacy era's old name, is
 * `'legacy'`, with one `DeprecationWarning` (stderr, never stdout) per process. Any other name
 * throws a `TypeError` that says which are allowed (`what` names the input in it).
 *
 * @example
 * eraName('handshake'); // 'legacy', warning once
 * eraName('modren', 'TestClient option "era"'); // TypeError: TestClient option "era" must be "legacy" or "modern" …
 */
export function eraName(era: EraName | DeprecatedEraName, what = 'the era'): EraName {
  if (era === 'legacy' || era === 'modern') return era;
  if (era !== 'handshake') {
    const shown = typeof era === 'string' ? JSON.stringify(era) : String(era);
    throw new TypeError(`${what} must be "legacy" or "modern" (got ${shown}); "handshake", the legacy era's old name, is still accepted, deprecated`);
  }
  if (!warned) {
    warned = true;
    process.emitWarning("The era name 'handshake' is deprecated: use 'legacy' (removed in the next release).", {
      type: 'DeprecationWarning',
      code: 'MCPKIT_DEP_ERA_HANDSHAKE',
    });
  }
  return 'legacy';
}
