import { createApp, defineTool, type AuthInfo } from '@mcpkit/core';
import { RpcError, TestClient } from '@mcpkit/testing';
import { UpstreamAccess } from './upstream-access';

// What the authenticated gateway lets each caller reach of what it proxies, by the upstream's
// annotations with MCP's defaults: read-only for anyone, non-destructive writes for the write
// scope, anything else (destructive, or not annotated) for the admin role; hidden from the rest.
const DESTRUCTIVE = { destructiveHint: true };
const READ_ONLY = { readOnlyHint: true };
const WRITES = { readOnlyHint: false, destructiveHint: false };
const admin: AuthInfo = { subject: 'ada', clientId: 'spec', scopes: [], claims: { roles: ['admin'] } };
const reader: AuthInfo = { subject: 'bob', clientId: 'spec', scopes: ['notes:read'], claims: { roles: ['reader'] } };
const writer: AuthInfo = { subject: 'cy', clientId: 'spec', scopes: ['notes:read', 'notes:write'], claims: {} };

function gateway(serve = true) {
  const access = new UpstreamAccess(['remote']);
  const app = createApp({
    name: 'gateway',
    version: '1.0.0',
    guards: [access],
    providers: [
      defineTool({ name: 'remote_drop', description: 'Drops.', annotations: DESTRUCTIVE }, () => 'dropped'),
      defineTool({ name: 'remote_read', description: 'Reads.', annotations: READ_ONLY }, () => 'read'),
      defineTool({ name: 'remote_write', description: 'Writes.', annotations: WRITES }, () => 'written'),
      defineTool({ name: 'remote_unsaid', description: 'Says nothing of itself.' }, () => 'unsaid'),
      defineTool({ name: 'own_drop', description: 'Drops its own.', annotations: DESTRUCTIVE }, () => 'own'),
    ],
  });
  if (serve) access.serve(app);
  return app;
}

describe('UpstreamAccess', () => {
  it('lists and runs an upstream destructive tool for an admin only; everyone else finds no such tool', async () => {
    const app = gateway();
    const asAdmin = await TestClient.connect(app, { auth: admin });
    const asReader = await TestClient.connect(app, { auth: reader });
    expect((await asAdmin.listTools()).map((tool) => tool.name)).toEqual(['remote_drop', 'remote_read', 'remote_write', 'remote_unsaid', 'own_drop']);
    expect((await asReader.listTools()).map((tool) => tool.name)).toEqual(['remote_read', 'own_drop']);
    expect(await asAdmin.callTool('remote_drop')).toMatchObject({ content: [{ text: 'dropped' }] });
    await expect(asReader.callTool('remote_drop')).rejects.toMatchObject({ code: -32602 });
    await expect(asReader.callTool('remote_drop')).rejects.toBeInstanceOf(RpcError);
    expect(await asReader.callTool('remote_read')).toMatchObject({ content: [{ text: 'read' }] });
  });

  it('lets the write scope reach the upstream writes said to be harmless, and nothing destructive or unannotated', async () => {
    const asWriter = await TestClient.connect(gateway(), { auth: writer });
    expect((await asWriter.listTools()).map((tool) => tool.name)).toEqual(['remote_read', 'remote_write', 'own_drop']);
    expect(await asWriter.callTool('remote_write')).toMatchObject({ content: [{ text: 'written' }] });
    await expect(asWriter.callTool('remote_unsaid')).rejects.toMatchObject({ code: -32602 });
    await expect(asWriter.callTool('remote_drop')).rejects.toMatchObject({ code: -32602 });
  });

  it('judges no upstream tool harmless before it knows the app', async () => {
    const asReader = await TestClient.connect(gateway(false), { auth: reader });
    expect((await asReader.listTools()).map((tool) => tool.name)).toEqual(['own_drop']);
  });
});
