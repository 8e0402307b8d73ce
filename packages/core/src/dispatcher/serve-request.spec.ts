import pino from 'pino';
import { createApp } from '../server/create-app';
import { classify } from '../eras/classify';
import type { Era } from '../eras/era';
import { ERAS } from '../eras/eras';
import type { McpApp } from '../server/mcp-app';
import type { RequestFrame } from '../wire/frame';
import type { AppModel } from './app-model';
import { Connection } from './connection';
import type { MethodHandler } from './method-handler';
import { RequestScope } from './request-scope';
import { serveRequest } from './serve-request';

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const ONLY = 'x/only';

/** The app, with a handler for `x/only` in its method table: which eras serve it is theirs to say. */
function appWithOnly(): AppModel {
  const app: McpApp = createApp({ name: 't', version: '1', providers: [], logger: pino({ level: 'silent' }) });
  const methods = new Map<string, MethodHandler>(app.methods);
  methods.set(ONLY, () => ({ served: true }));
  return Object.create(app, { methods: { value: methods } }) as AppModel;
}

/** `era` with `x/only` in its registry. */
function registering(era: Era): Era {
  return { ...era, methods: new Set([...era.methods, ONLY]) };
}

function modernRequest(era: Era, app: AppModel): Promise<unknown> {
  const frame = classify({ jsonrpc: '2.0', id: 1, method: ONLY, params: { _meta: MODERN_META } }) as RequestFrame;
  return serveRequest(era, frame, new RequestScope(app, { kind: 'http', headers: {} }), {});
}

async function legacyRequest(era: Era, app: AppModel): Promise<unknown> {
  const connection = new Connection(app, { kind: 'memory' });
  await connection.receive({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
  const frame = classify({ jsonrpc: '2.0', id: 1, method: ONLY, params: {} }) as RequestFrame;
  return serveRequest(era, frame, connection, {});
}

describe('serveRequest', () => {
  describe('the era registries', () => {
    it('serves a method registered for the modern era only there, and answers -32601 on the legacy one', async () => {
      const app = appWithOnly();
      expect(await modernRequest(registering(ERAS.modern), app)).toMatchObject({ id: 1, result: { served: true, resultType: 'complete' } });
      expect(await legacyRequest(ERAS.legacy, app)).toMatchObject({ id: 1, error: { code: -32601 } });
    });

    it('serves a method registered for the legacy era only there, and answers -32601 on the modern one', async () => {
      const app = appWithOnly();
      expect(await legacyRequest(registering(ERAS.legacy), app)).toMatchObject({ id: 1, result: { served: true } });
      expect(await modernRequest(ERAS.modern, app)).toMatchObject({ id: 1, error: { code: -32601 } });
    });

    it('answers -32601 for a method in no registry, though the method table has its handler', async () => {
      const app = appWithOnly();
      expect(await modernRequest(ERAS.modern, app)).toMatchObject({ error: { code: -32601 } });
      expect(await legacyRequest(ERAS.legacy, app)).toMatchObject({ error: { code: -32601 } });
    });
  });
});
