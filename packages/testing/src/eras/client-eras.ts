import type { DeprecatedEraName } from '@mcpkit/core/transport';
import type { ClientEra } from './client-era';
import { HandshakeClient } from './handshake-client';
import { StatelessClient } from './stateless-client';

let warned = false;

/**
 * The client side of the era a test asks for (`TestClientOptions.era`). `'handshake'`, the
 * legacy era's old name, is the legacy era, with one `DeprecationWarning` per process.
 */
export function clientEra(era: 'legacy' | 'modern' | DeprecatedEraName | undefined, maxRounds: number): ClientEra {
  if (era === 'handshake' && !warned) {
    warned = true;
    process.emitWarning("TestClient era 'handshake' is deprecated: use 'legacy' (removed in the next release).", {
      type: 'DeprecationWarning',
      code: 'MCPKIT_DEP_ERA_HANDSHAKE',
    });
  }
  return era === 'modern' ? new StatelessClient(maxRounds) : new HandshakeClient();
}
