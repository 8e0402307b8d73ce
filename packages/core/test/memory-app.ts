import pino from 'pino';
import { DefinitionError } from '../src/errors/definition-error';
import type { Provider } from '../src/scanner/scan-providers';
import { createApp } from '../src/server/create-app';

// Shared by the unit specs of src/define, which compare a defined capability with the decorated one.
const silent = pino({ level: 'silent' });

/** The answer to one request of a fresh app of `providers`, on an initialized 2025-11-25 memory connection. */
export async function request(providers: Provider[], method: string, params: Record<string, unknown> = {}): Promise<{ result?: unknown; error?: unknown }> {
  const connection = createApp({ name: 't', version: '1', providers, logger: silent }).connect({ kind: 'memory' });
  await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
  return (await connection.receive({ jsonrpc: '2.0', id: 1, method, params })) as { result?: unknown; error?: unknown };
}

/** The DefinitionError `createApp` throws for `providers`. */
export function startupError(providers: Provider[]): DefinitionError {
  try {
    createApp({ name: 't', version: '1', providers, logger: silent });
  } catch (error) {
    if (error instanceof DefinitionError) return error;
    throw error;
  }
  throw new Error('createApp did not throw');
}
