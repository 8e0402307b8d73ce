import type { JsonRpcMessage } from '@mcpkit/core';
import { encodeMessage } from '@mcpkit/core/transport';
import { encodeRequest, sharedMeta } from './encode-request';

const limits = { maxMessageBytes: 4096, maxBatchBytes: 4096 };
const request = (params?: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 7, method: 'tools/call', ...(params ? { params } : {}) }) as JsonRpcMessage;

describe('encodeRequest', () => {
  const meta = sharedMeta({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'zürich', version: '1' } });

  it('writes the text encodeMessage writes, a shared _meta spliced in, with params of any shape', () => {
    for (const params of [
      { name: 'echo', arguments: { text: 'a "quoted" }} text' }, _meta: meta },
      { _meta: meta },
      { name: 'echo', arguments: {}, _meta: meta },
      { nested: { params: {} }, _meta: meta },
    ]) {
      const text = encodeRequest(request(params), limits);
      expect(text).toBe(encodeMessage(request(params), limits));
      expect(JSON.parse(text!)).toEqual(JSON.parse(JSON.stringify(request(params))));
    }
  });

  it('does not serialise a shared _meta again', () => {
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      encodeRequest(request({ name: 'echo', _meta: meta }), limits);
      expect(stringify).toHaveBeenCalled();
      expect(stringify.mock.calls.some(([value]) => (value as { params?: { _meta?: unknown } }).params?._meta === meta)).toBe(false);
    } finally {
      stringify.mockRestore();
    }
  });

  it('encodes whole what has no shared _meta: an unregistered one, a copy of a shared one, none, an answer', () => {
    const copy = { ...meta };
    for (const message of [
      request({ name: 'echo', _meta: { progressToken: 1 } }),
      request({ name: 'echo', _meta: copy }),
      request({ name: 'echo' }),
      request(),
      { jsonrpc: '2.0', id: 1, result: { _meta: meta } } as JsonRpcMessage,
    ]) {
      expect(encodeRequest(message, limits)).toBe(encodeMessage(message, limits));
    }
  });

  it('keeps the bound: a request over maxMessageBytes in UTF-8 bytes, the shared _meta included, is not encoded', () => {
    const big = sharedMeta({ text: 'ü'.repeat(1500) });
    const small = { name: 'echo', arguments: { text: 'x'.repeat(900) } };
    // Under the bound in characters (about 2450), over it in bytes (about 3950 + the head).
    expect(encodeRequest(request({ ...small, _meta: big }), { maxMessageBytes: 3500, maxBatchBytes: 3500 })).toBeUndefined();
    expect(encodeRequest(request({ ...small, _meta: big }), { maxMessageBytes: 5000, maxBatchBytes: 5000 })).toBe(
      encodeMessage(request({ ...small, _meta: big }), limits),
    );
    expect(encodeRequest(request({ arguments: { text: 'x'.repeat(5000) }, _meta: meta }), limits)).toBeUndefined();
  });

  it('freezes what it shares: its JSON cannot go stale', () => {
    expect(Object.isFrozen(meta)).toBe(true);
    expect(() => ((meta as Record<string, unknown>).extra = 1)).toThrow(TypeError);
  });
});
