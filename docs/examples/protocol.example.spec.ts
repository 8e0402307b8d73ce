import { TestClient } from '@mcpkit/testing';
import { weatherApp } from './tools.example';

describe('one app, every legacy-era revision', () => {
  it('answers in the revision the client asked for, without newer fields', async () => {
    const old = await TestClient.connect(weatherApp, { protocolVersion: '2025-03-26' });
    expect(old.server.protocolVersion).toBe('2025-03-26');
    const forecast = (await old.listTools()).find((tool) => tool.name === 'forecast')!;
    expect(forecast).not.toHaveProperty('title'); // titles arrived in 2025-06-18
    expect(forecast).not.toHaveProperty('outputSchema');
  });

  it('offers its latest revision to a client it does not know', async () => {
    const future = await TestClient.connect(weatherApp, { protocolVersion: '2099-01-01' });
    expect(future.server.protocolVersion).toBe('2025-11-25');
  });
});
