import { MODERN_PROTOCOL_VERSIONS, type Implementation } from '@mcpkit/core';
import { MODERN_META as META, SERVER_DISCOVER } from '@mcpkit/core/transport';
import { RpcError } from '../rpc-error';
import type { ClientEra, ClientWire, InitializeInfo, OpenOptions } from './client-era';

/** What `server/discover` answers (the parts the test client keeps). */
interface DiscoverInfo {
  capabilities: InitializeInfo['capabilities'];
  instructions?: string;
  _meta?: Record<string, unknown>;
}

/**
 * The modern era: `server/discover` first, then every request carries the client's version,
 * capabilities and info in `_meta`; input-required results are answered and the request retried,
 * as a real client does.
 */
export class StatelessClient implements ClientEra {
  readonly name = 'modern';
  rounds = 0;
  private meta: Record<string, unknown> = {};
  private logLevel: string | undefined = undefined;

  constructor(private readonly maxRounds: number) {}

  async open(wire: ClientWire, options: OpenOptions): Promise<InitializeInfo> {
    const protocolVersion = options.protocolVersion ?? MODERN_PROTOCOL_VERSIONS[0];
    this.meta = { [META.PROTOCOL_VERSION]: protocolVersion, [META.CLIENT_CAPABILITIES]: options.capabilities, [META.CLIENT_INFO]: options.clientInfo };
    const discovered = (await this.request(wire, SERVER_DISCOVER, undefined)) as unknown as DiscoverInfo;
    return {
      protocolVersion,
      capabilities: discovered.capabilities,
      serverInfo: discovered._meta?.[META.SERVER_INFO] as Implementation,
      ...(discovered.instructions === undefined ? {} : { instructions: discovered.instructions }),
    };
  }

  async request(wire: ClientWire, method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
    const meta = this.logLevel === undefined ? this.meta : { ...this.meta, [META.LOG_LEVEL]: this.logLevel };
    const base = { ...params, _meta: { ...meta, ...(params?._meta as Record<string, unknown> | undefined) } };
    this.rounds = 0;
    let result = await wire.send(method, base);
    while (result.resultType === 'input_required') {
      if (this.rounds >= this.maxRounds) throw new RpcError(0, `${method} still needed input after ${this.maxRounds} rounds`, result);
      this.rounds += 1;
      const inputResponses = await wire.answer((result.inputRequests ?? {}) as Record<string, { method: string; params?: Record<string, unknown> }>);
      result = await wire.send(method, { ...base, inputResponses, ...(result.requestState === undefined ? {} : { requestState: result.requestState }) });
    }
    return result;
  }

  /** The level every following request carries in its `_meta`. */
  setLogLevel(_wire: ClientWire, level: string): Promise<void> {
    this.logLevel = level;
    return Promise.resolve();
  }

  listenParams(notifications: Record<string, unknown>): Record<string, unknown> {
    return { notifications, _meta: this.meta };
  }

  cancelParams(requestId: string | number): Record<string, unknown> {
    return { requestId, _meta: this.meta };
  }
}
