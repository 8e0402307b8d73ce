/** Renders a bench result (the JSON of run.ts) as Markdown tables with ratios. */
export function renderMarkdown(results: Record<string, unknown>): string {
  // A `--only startup` run has no call figures and no long list.
  const throughput = (results.throughput ?? {}) as Record<string, { callsPerSecond: number; p50Ms: number; p99Ms: number; cpuUsPerCall: number }>;
  const lines: string[] = [];
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '–');
  if (results.throughput) {
    lines.push('| transport | workload | in flight | server | calls/s | p50 ms | p99 ms | CPU µs/call | CPU vs raw | CPU vs SDK |');
    lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  }
  const keys = Object.keys(throughput);
  const groups = [...new Set(keys.filter((key) => !key.startsWith('mcpkit+')).map((key) => key.split('|').slice(1).join('|')))];
  for (const group of groups) {
    const [transport, workload, concurrency] = group.split('|');
    const raw = throughput[`raw|${group}`];
    // 2026-07-28 rows compare with the v2 SDK, the others with v1.
    const sdk = throughput[`sdk|${group}`] ?? throughput[`sdk2|${group}`];
    for (const server of ['mcpkit', 'sdk', 'sdk2', 'raw']) {
      const row = throughput[`${server}|${group}`];
      if (!row) continue;
      lines.push(
        `| ${transport} | ${workload} | ${concurrency} | ${server} | ${row.callsPerSecond} | ${row.p50Ms} | ${row.p99Ms} | ${row.cpuUsPerCall} | ${ratio(row.cpuUsPerCall, raw.cpuUsPerCall)} | ${sdk ? ratio(row.cpuUsPerCall, sdk.cpuUsPerCall) : '–'} |`,
      );
    }
  }
  // Logging rows: mcpkit at warn, at info, and as configured by default, beside raw.
  const logging = results.logging as Record<string, Record<string, { callsPerSecond: number; cpuUsPerCall: number }>> | undefined;
  if (logging) {
    if (lines.length > 0) lines.push('');
    lines.push('| transport | server (echo, 16 in flight) | calls/s | CPU µs/call | CPU vs raw |', '| --- | --- | --- | --- | --- |');
    for (const [transport, rows] of Object.entries(logging)) {
      for (const [server, row] of Object.entries(rows))
        lines.push(`| ${transport} | ${server} | ${row.callsPerSecond} | ${row.cpuUsPerCall} | ${ratio(row.cpuUsPerCall, rows.raw.cpuUsPerCall)} |`);
    }
  }
  // Auth rows (#14): the plain echo, behind the pipeline, and JWT-verified, beside the testbed's echo.
  const auth = results.auth as Record<string, Record<string, { callsPerSecond: number; cpuUsPerCall: number }>> | undefined;
  if (auth) {
    if (lines.length > 0) lines.push('');
    lines.push('| transport | server (echo, 16 in flight) | calls/s | CPU µs/call | CPU vs no pipeline |', '| --- | --- | --- | --- | --- |');
    for (const [transport, rows] of Object.entries(auth)) {
      const plain = rows['echo, no pipeline'];
      for (const [server, row] of Object.entries(rows))
        lines.push(`| ${transport} | ${server} | ${row.callsPerSecond} | ${row.cpuUsPerCall} | ${plain ? ratio(row.cpuUsPerCall, plain.cpuUsPerCall) : '–'} |`);
    }
  }
  // Scale-out rows: the same HTTP session server with its sessions in memory and on Redis.
  type ScaleOut = { callsPerSecond: number; p50Ms: number; cpuUsPerCall: number; redisCpuUsPerCall: number; redisCommandsPerCall: number };
  const scaleOut = results.scaleOut as Record<string, ScaleOut> | undefined;
  if (scaleOut) {
    if (lines.length > 0) lines.push('');
    lines.push(
      '| HTTP with a session, echo | in flight | calls/s | p50 ms | server CPU µs/call | Redis CPU µs/call | Redis commands/call | server + Redis CPU vs memory |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
    );
    for (const [key, row] of Object.entries(scaleOut)) {
      const [stores, concurrency] = key.split('|');
      const memory = scaleOut[`memory stores|${concurrency}`];
      const total = row.cpuUsPerCall + row.redisCpuUsPerCall;
      lines.push(
        `| mcpkit, ${stores} | ${concurrency} | ${row.callsPerSecond} | ${row.p50Ms} | ${row.cpuUsPerCall} | ${row.redisCpuUsPerCall} | ${row.redisCommandsPerCall} | ${memory ? ratio(total, memory.cpuUsPerCall + memory.redisCpuUsPerCall) : '–'} |`,
      );
    }
  }
  // HTTP clients (#27): the same session echo from Node's http client and from an undici pool.
  type ClientRow = { callsPerSecond: number; cpuUsPerCall: number; mainThreadCpuUsPerCall?: number };
  const httpClients = results.httpClients as Record<string, Record<string, ClientRow>> | undefined;
  if (httpClients) {
    if (lines.length > 0) lines.push('');
    lines.push(
      '| HTTP client (session, echo, 16 in flight) | server | calls/s | CPU µs/call | main thread µs/call | CPU vs raw |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const [client, rows] of Object.entries(httpClients)) {
      for (const [server, row] of Object.entries(rows))
        lines.push(
          `| ${client} | ${server} | ${row.callsPerSecond} | ${row.cpuUsPerCall} | ${row.mainThreadCpuUsPerCall ?? '–'} | ${rows.raw ? ratio(row.cpuUsPerCall, rows.raw.cpuUsPerCall) : '–'} |`,
        );
    }
  }
  // Composition (#30): echo direct, mounted and proxied (gateway plus remote), against direct.
  const compose = results.compose as Record<string, Record<string, ClientRow>> | undefined;
  if (compose) {
    if (lines.length > 0) lines.push('');
    lines.push(
      '| transport | server (echo, 16 in flight) | calls/s | CPU µs/call | main thread µs/call | CPU vs direct |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const [transport, rows] of Object.entries(compose)) {
      const direct = rows['echo, direct'];
      for (const [server, row] of Object.entries(rows))
        lines.push(
          `| ${transport} | ${server} | ${row.callsPerSecond} | ${row.cpuUsPerCall} | ${row.mainThreadCpuUsPerCall ?? '–'} | ${direct ? ratio(row.cpuUsPerCall, direct.cpuUsPerCall) : '–'} |`,
        );
    }
  }
  type Memory = Record<string, { idleMb: number; after20kMb: number }>;
  const cold = results.coldStartMs as Record<string, number>;
  const memory = results.memory as Memory;
  const list = results.toolsList505P50Ms as Record<string, number> | undefined;
  // A `--only logging`, `--only auth`, `--only scale-out`, `--only http-clients` or `--only compose` run has nothing else.
  if (!cold) return lines.join('\n');
  if (lines.length > 0) lines.push('');
  lines.push(
    '| figure | mcpkit | SDK v1 | SDK v2 | raw | mcpkit vs raw | mcpkit vs SDK v1 | mcpkit vs SDK v2 |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  // Older result files have no SDK v2 figures: their cells stay empty.
  const figure = (label: string, values: Record<string, number | undefined>) => {
    const cell = (server: string) => (values[server] === undefined ? '–' : String(values[server]));
    const vs = (server: string) => (values.mcpkit === undefined || values[server] === undefined ? '–' : ratio(values.mcpkit, values[server]!));
    lines.push(`| ${label} | ${cell('mcpkit')} | ${cell('sdk')} | ${cell('sdk2')} | ${cell('raw')} | ${vs('raw')} | ${vs('sdk')} | ${vs('sdk2')} |`);
  };
  const growthRow = (label: string, figures: Memory) => {
    const growth = Object.fromEntries(Object.entries(figures).map(([server, m]) => [server, Math.round((m.after20kMb - m.idleMb) * 10) / 10]));
    lines.push(`| ${label} | ${growth.mcpkit} | ${growth.sdk} | ${growth.sdk2 ?? '–'} | ${growth.raw} | | | |`);
  };
  const idle = (figures: Memory) => Object.fromEntries(Object.entries(figures).map(([server, m]) => [server, m.idleMb]));
  // The same testbed without the start-up opt-in, against the same other servers.
  const plain = (figures: Record<string, number>) => ({ ...figures, mcpkit: figures['mcpkit-plain'] });
  figure('cold start to first tools/list (ms, stdio)', cold);
  if (cold['mcpkit-plain'] !== undefined) figure('cold start, mcpkit without the start-up opt-in (ms, stdio)', plain(cold));
  if (list) figure('tools/list with 505 tools, p50 (ms, stdio)', list);
  figure('RSS idle (MB)', idle(memory));
  growthRow('RSS growth after the echo calls (MB)', memory);
  // Older result files have no Node 24 figures.
  const cold24 = results.coldStartMsNode24 as Record<string, number> | undefined;
  const memory24 = results.memoryNode24 as Memory | undefined;
  if (cold24) figure('cold start to first tools/list (ms, stdio), Node 24', cold24);
  if (cold24?.['mcpkit-plain'] !== undefined) figure('cold start, mcpkit without the start-up opt-in (ms, stdio), Node 24', plain(cold24));
  if (memory24) {
    figure('RSS idle (MB), Node 24', idle(memory24));
    growthRow('RSS growth after the echo calls (MB), Node 24', memory24);
  }
  return lines.join('\n');
}
