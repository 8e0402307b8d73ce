import { eraName, type DeprecatedEraName } from '@mcpkit/core/transport';
import type { ClientEra } from './client-era';
import { HandshakeClient } from './handshake-client';
import { StatelessClient } from './stateless-client';

/**
 * The client side of the era a test asks for (`TestClientOptions.era`, legacy by default), read
 * by core's `eraName`: `'handshake'`, the legacy era's old name, is the legacy era (with core's one
 * `DeprecationWarning` per process); any other unknown name throws a `TypeError`.
 */
export function clientEra(era: 'legacy' | 'modern' | DeprecatedEraName | undefined, maxRounds: number): ClientEra {
  const name = era === undefined ? 'legacy' : eraName(era, 'TestClient option "era"');
  return name === 'modern' ? new StatelessClient(maxRounds) : new HandshakeClient();
}
