import { createApp, defineTool } from '@mcpkit/core';
import { buildManifest } from './contract/manifest';
import { describeApp } from './describe-app';

function composed() {
  const echo = defineTool(
    { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: { text: { type: 'string' }, tenant: { type: 'string' } } } },
    (input) => input,
  );
  const child = createApp({ name: 'child', version: '1', providers: [echo] });
  return createApp({
    name: 'gateway',
    version: '1',
    providers: [],
    imports: [{ app: child, prefix: 'child' }],
    transforms: [{ tool: 'child_echo', name: 'say', description: 'Says it back.', hide: { tenant: { value: 'acme' } } }],
  });
}

describe('describeApp and buildManifest of a composed app', () => {
  it('show the published tools: mounted, renamed, reshaped', () => {
    const app = composed();
    const inspected = describeApp(app).tools as Array<{ name: string; description: string; inputSchema: { properties: object } }>;
    expect(inspected.map((tool) => [tool.name, tool.description, Object.keys(tool.inputSchema.properties)])).toEqual([['say', 'Says it back.', ['text']]]);
    const manifest = buildManifest(app);
    for (const era of Object.values(manifest.eras)) expect(era.tools.map((tool) => tool.name)).toEqual(['say']);
  });
});
