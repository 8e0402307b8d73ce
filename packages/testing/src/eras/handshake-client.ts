import { LATEST_LEGACY_PROTOCOL_VERSION } from '@mcpkit/core';
import type { ClientEra, ClientWire, InitializeInfo, OpenOptions } from './client-era';

/** The revision an `initialize` asks for unless told otherwise: the newest of the legacy era. */
export const INITIALIZE_REVISION: string = LATEST_LEGACY_PROTOCOL_VERSION;

/** The legacy era: `initialize`, then plain requests on the session it opened. */
export class HandshakeClient implements ClientEra {
  readonly name = 'legacy';
  readonly rounds = 0;

  async open(wire: ClientWire, options: OpenOptions): Promise<InitializeInfo> {
    const info = (await wire.send('initialize', {
      protocolVersion: options.protocolVersion ?? INITIALIZE_REVISION,
      capabilities: options.capabilities,
      clientInfo: options.clientInfo,
    })) as unknown as InitializeInfo;
    await wire.notify('notifications/initialized');
    return info;
  }

  request(wire: ClientWire, method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
    return wire.send(method, params);
  }

  async setLogLevel(wire: ClientWire, level: string): Promise<void> {
    await wire.send('logging/setLevel', { level });
  }

  listenParams(): Record<string, unknown> {
    throw new Error('listen() is the modern-era way to subscribe: connect with { era: "modern" }, or use subscribe()');
  }

  cancelParams(requestId: string | number): Record<string, unknown> {
    return { requestId };
  }
}
