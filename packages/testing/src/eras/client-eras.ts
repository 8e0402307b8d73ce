import type { ClientEra } from './client-era';
import { HandshakeClient } from './handshake-client';
import { StatelessClient } from './stateless-client';

/** The client side of the era a test asks for (`TestClientOptions.era`). */
export function clientEra(era: 'legacy' | 'modern' | undefined, maxRounds: number): ClientEra {
  return era === 'modern' ? new StatelessClient(maxRounds) : new HandshakeClient();
}
