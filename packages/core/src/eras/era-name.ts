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
 * `'legacy'`, with one `DeprecationWarning` (stderr, never stdout) per process.
 */
export function eraName(era: EraName | DeprecatedEraName): EraName {
  if (era !== 'handshake') return era;
  if (!warned) {
    warned = true;
    process.emitWarning("The era name 'handshake' is deprecated: use 'legacy' (removed in the next release).", {
      type: 'DeprecationWarning',
      code: 'MCPKIT_DEP_ERA_HANDSHAKE',
    });
  }
  return 'legacy';
}
