import { firstText, TestClient } from '@mcpkit/testing';
import { weatherApp } from './tools.example';

describe('weather tools', () => {
  it('forecasts for a known city', async () => {
    const client = await TestClient.connect(weatherApp);
    const result = await client.callTool('forecast', { city: 'Paris', days: 2 });
    expect(result.structuredContent).toEqual({ city: 'Paris', celsius: 21.5 });
  });

  it('answers bad input with an isError result', async () => {
    const client = await TestClient.connect(weatherApp);
    const result = await client.callTool('summary', { city: 'Paris', days: 0 });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain('days: must be >= 1');
  });

  it('lists tools as an array of entries, not the { tools } result', async () => {
    const client = await TestClient.connect(weatherApp);
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['summary', 'forecast', 'chart']);
    expect(tools[1]).toMatchObject({ title: 'Forecast', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } });
  });

  it('fails unknown tools with a JSON-RPC error', async () => {
    const client = await TestClient.connect(weatherApp);
    await expect(client.callTool('nope')).rejects.toMatchObject({ code: -32602 });
  });
});
