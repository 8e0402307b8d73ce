import type * as NodeCrypto from 'node:crypto';

let loaded: typeof NodeCrypto | undefined;

/**
 * node:crypto, loaded on first use: it costs ~7 ms of a server's cold start on Node 24, and only
 * input-required rounds (signing `requestState`) and URL elicitations need it.
 */
export function nodeCrypto(): typeof NodeCrypto {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('node:crypto') as typeof NodeCrypto;
  return loaded;
}
