import { join } from 'node:path';
import { TestClient, firstText } from '@mcpkit/testing';
import { createGateway, everythingOverStdio } from '../examples/proxy.example';

// docs/proxy.md: the gateway example in front of the built apps/everything over stdio.
const EVERYTHING = join(__dirname, '..', '..', 'apps', 'everything', 'dist', 'main.js');

describe('the proxy example', () => {
  it("offers the remote's tools under everything_, filtered, and relays a question to the caller", async () => {
    const { app, upstream } = await createGateway(everythingOverStdio(EVERYTHING));
    const client = await TestClient.connect(app, { handlers: { 'elicitation/create': () => ({ action: 'accept', content: { response: 'ok' } }) } });
    try {
      const names = (await client.listTools()).map((tool) => tool.name);
      expect(names).toContain('everything_test_simple_text');
      expect(names).not.toContain('everything_test_missing_capability');
      expect(firstText(await client.callTool('everything_test_elicitation', { message: 'Go?' }))).toBe(
        'User response: action=accept, content={"response":"ok"}',
      );
    } finally {
      client.close();
      await upstream.close();
    }
  });
});
