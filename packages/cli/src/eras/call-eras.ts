import { InvalidArgumentError } from 'commander';
import { err } from '../output';

/** The eras `mcpkit call --era` speaks, in the spec's words: legacy (`initialize`, a session) and modern (`_meta` on every request). */
export const CALL_ERAS = ['legacy', 'modern'] as const;

/** An era `mcpkit call` speaks. */
export type CallEra = (typeof CALL_ERAS)[number];

/**
 * Reads `--era`. `handshake`, the legacy era's old name, is still `legacy` for one release, with
 * a deprecation note on stderr (stdout carries only the result).
 */
export function parseCallEra(value: string): CallEra {
  if (value === 'handshake') {
    err('mcpkit: --era handshake is deprecated: use --era legacy (removed in the next release)');
    return 'legacy';
  }
  if (!(CALL_ERAS as readonly string[]).includes(value)) throw new InvalidArgumentError(`Allowed choices are ${CALL_ERAS.join(', ')}.`);
  return value as CallEra;
}
