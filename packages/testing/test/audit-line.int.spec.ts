import { createApp, Prompt, RateLimit, RequireRoles, RequireScopes, Tool, UseGuards, type AuthInfo } from '@mcpkit/core';
import { IsString } from 'class-validator';
import { TestClient } from '../src';
import { capturedLogger } from './support/captured-logger';

class Secret {
  @IsString()
  text: string;
}

class Audited {
  @Tool()
  echo(input: Secret) {
    return input.text;
  }

  @Tool()
  fails() {
    throw new Error('boom');
  }

  @Tool()
  @RequireScopes('notes:write')
  write(input: Secret) {
    return input.text;
  }

  @Tool()
  @RequireRoles('admin')
  admin() {
    return 'admin';
  }

  @Tool()
  @RateLimit({ limit: 1, windowMs: 60_000 })
  once() {
    return 'once';
  }

  @Tool()
  @UseGuards({
    canActivate() {
      throw new Error('guard down');
    },
  })
  guarded() {
    return 'never';
  }

  @Prompt()
  broken() {
    throw new Error('prompt failure');
  }
}

const caller: AuthInfo = { subject: 'user-1', clientId: 'client-9', scopes: ['notes:read'], claims: { email: 'u@example.com' } };

describe.each(['legacy', 'modern'] as const)('the audit line (%s era)', (era) => {
  it('names the caller, the target, the outcome and the JSON-RPC code, never a payload', async () => {
    const { logger, lines } = capturedLogger();
    const app = createApp({ name: 'audited', version: '1', providers: [Audited], logger });
    const client = await TestClient.connect(app, { era, auth: caller, logger });
    await client.callTool('echo', { text: 'top-secret-argument' });
    await client.callTool('echo', {});
    await client.callTool('fails');
    await client.callTool('write', { text: 'x' }).catch(() => undefined);
    await client.callTool('admin').catch(() => undefined);
    await client.callTool('missing').catch(() => undefined);
    await client.callTool('once');
    await client.callTool('once');
    await client.callTool('guarded').catch(() => undefined);
    await client.getPrompt('broken').catch(() => undefined);
    const requests = lines.filter((line) => line.msg === 'request' && line.method !== 'initialize' && line.method !== 'server/discover');
    const summary = requests.map(({ target, outcome, code }) => ({ target, outcome, ...(code === undefined ? {} : { code }) }));
    expect(summary).toEqual([
      { target: 'echo', outcome: 'ok' },
      // Invalid arguments are a tool result the model can fix (SEP-1303), not a JSON-RPC error.
      { target: 'echo', outcome: 'tool_error' },
      { target: 'fails', outcome: 'tool_error' },
      { target: 'write', outcome: 'denied', code: -31001 },
      { target: 'admin', outcome: 'hidden', code: -32602 },
      { target: 'missing', outcome: 'invalid', code: -32602 },
      { target: 'once', outcome: 'ok' },
      { target: 'once', outcome: 'rate_limited' },
      { target: 'guarded', outcome: 'denied', code: -31001 },
      { target: 'broken', outcome: 'error -32603', code: -32603 },
    ]);
    for (const line of requests) expect(line).toMatchObject({ subject: 'user-1', clientId: 'client-9', ms: expect.any(Number) });
    const text = JSON.stringify(lines);
    expect(text).not.toContain('top-secret-argument');
    expect(text).not.toContain('u@example.com');
  });

  it('leaves the caller out for anonymous requests', async () => {
    const { logger, lines } = capturedLogger();
    const client = await TestClient.connect(createApp({ name: 'a', version: '1', providers: [Audited], logger }), { era, logger });
    await client.callTool('echo', { text: 'hi' });
    const line = lines.find((entry) => entry.msg === 'request' && entry.target === 'echo')!;
    expect(line).toMatchObject({ outcome: 'ok' });
    expect(line).not.toHaveProperty('subject');
    expect(line).not.toHaveProperty('code');
  });
});
