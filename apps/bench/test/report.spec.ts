import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withTables } from '../src/render';
import { renderMarkdown } from '../src/report';

describe('docs/benchmarks.md', () => {
  it('shows exactly the tables generated from the committed benchmarks.json', () => {
    const docs = join(__dirname, '..', '..', '..', 'docs');
    const page = readFileSync(join(docs, 'benchmarks.md'), 'utf8');
    const results = JSON.parse(readFileSync(join(docs, 'benchmarks.json'), 'utf8')) as Record<string, unknown>;
    expect(withTables(page, results)).toBe(page);
  });
});

describe('the scale-out table', () => {
  it('puts the Redis rows beside the in-memory ones, with server and Redis CPU against memory', () => {
    const figure = (cpuUsPerCall: number, redisCpuUsPerCall: number, redisCommandsPerCall: number) => ({
      callsPerSecond: 1000,
      p50Ms: 1,
      p99Ms: 2,
      cpuUsPerCall,
      redisCpuUsPerCall,
      redisCommandsPerCall,
    });
    const markdown = renderMarkdown({
      scaleOut: { 'memory stores|16': figure(40, 0, 0), 'Redis stores|16': figure(90, 10, 7) },
    });
    expect(markdown.split('\n')).toEqual([
      '| HTTP with a session, echo | in flight | calls/s | p50 ms | server CPU µs/call | Redis CPU µs/call | Redis commands/call | server + Redis CPU vs memory |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      '| mcpkit, memory stores | 16 | 1000 | 1 | 40 | 0 | 0 | 1.00× |',
      '| mcpkit, Redis stores | 16 | 1000 | 1 | 90 | 10 | 7 | 2.50× |',
    ]);
  });
});

describe('the HTTP clients table', () => {
  it('puts each client’s rows together, with the main thread’s share and CPU against raw of the same client', () => {
    const figure = (cpuUsPerCall: number, mainThreadCpuUsPerCall: number) => ({
      callsPerSecond: 1000,
      p50Ms: 1,
      p99Ms: 2,
      cpuUsPerCall,
      mainThreadCpuUsPerCall,
    });
    const markdown = renderMarkdown({
      httpClients: { 'node:http': { raw: figure(50, 40), mcpkit: figure(70, 55) }, undici: { raw: figure(40, 30), mcpkit: figure(60, 45) } },
    });
    expect(markdown.split('\n')).toEqual([
      '| HTTP client (session, echo, 16 in flight) | server | calls/s | CPU µs/call | main thread µs/call | CPU vs raw |',
      '| --- | --- | --- | --- | --- | --- |',
      '| node:http | raw | 1000 | 50 | 40 | 1.00× |',
      '| node:http | mcpkit | 1000 | 70 | 55 | 1.40× |',
      '| undici | raw | 1000 | 40 | 30 | 1.00× |',
      '| undici | mcpkit | 1000 | 60 | 45 | 1.50× |',
    ]);
  });
});

describe('the composition table', () => {
  it('puts the mounted and proxied echo beside the direct one of the same transport, with CPU against direct', () => {
    const figure = (cpuUsPerCall: number) => ({ callsPerSecond: 1000, p50Ms: 1, p99Ms: 2, cpuUsPerCall, mainThreadCpuUsPerCall: cpuUsPerCall / 2 });
    const markdown = renderMarkdown({
      compose: { stdio: { 'echo, direct': figure(10), 'echo, mounted': figure(10), 'echo, proxied (gateway + remote)': figure(14) } },
    });
    expect(markdown.split('\n')).toEqual([
      '| transport | server (echo, 16 in flight) | calls/s | CPU µs/call | main thread µs/call | CPU vs direct |',
      '| --- | --- | --- | --- | --- | --- |',
      '| stdio | echo, direct | 1000 | 10 | 5 | 1.00× |',
      '| stdio | echo, mounted | 1000 | 10 | 5 | 1.00× |',
      '| stdio | echo, proxied (gateway + remote) | 1000 | 14 | 7 | 1.40× |',
    ]);
  });
});
