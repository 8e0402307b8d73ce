/** Renders a bench result (the JSON of run.ts) as Markdown tables with ratios. */
export function renderMarkdown(results: Record<string, unknown>): string {
  const throughput = results.throughput as Record<string, { callsPerSecond: number; p50Ms: number; p99Ms: number; cpuUsPerCall: number }>;
  const lines: string[] = [];
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '–');
  lines.push('| transport | workload | in flight | server | calls/s | p50 ms | p99 ms | CPU µs/call | CPU vs raw | CPU vs SDK |');
  lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const keys = Object.keys(throughput);
  const groups = [...new Set(keys.filter((key) => !key.startsWith('mcpkit+')).map((key) => key.split('|').slice(1).join('|')))];
  for (const group of groups) {
    const [transport, workload, concurrency] = group.split('|');
    const raw = throughput[`raw|${group}`];
    // 2026-07-28 rows compare with the v2 SDK, the others with v1.
    const sdk = throughput[`sdk|${group}`] ?? throughput[`sdk2|${group}`];
    for (const server of ['mcpkit', 'mcpkit+info-log', 'sdk', 'sdk2', 'raw']) {
      const row = throughput[`${server}|${group}`];
      if (!row) continue;
      lines.push(`| ${transport} | ${workload} | ${concurrency} | ${server} | ${row.callsPerSecond} | ${row.p50Ms} | ${row.p99Ms} | ${row.cpuUsPerCall} | ${ratio(row.cpuUsPerCall, raw.cpuUsPerCall)} | ${sdk ? ratio(row.cpuUsPerCall, sdk.cpuUsPerCall) : '–'} |`);
    }
  }
  const cold = results.coldStartMs as Record<string, number>;
  const memory = results.memory as Record<string, { idleMb: number; after20kMb: number }>;
  const list = results.toolsList505P50Ms as Record<string, number>;
  lines.push('', '| figure | mcpkit | SDK v1 | SDK v2 | raw | mcpkit vs raw | mcpkit vs SDK v1 | mcpkit vs SDK v2 |', '| --- | --- | --- | --- | --- | --- | --- | --- |');
  // Older result files have no SDK v2 figures: their cells stay empty.
  const figure = (label: string, values: Record<string, number | undefined>) => {
    const cell = (server: string) => (values[server] === undefined ? '–' : String(values[server]));
    const vs = (server: string) => (values.mcpkit === undefined || values[server] === undefined ? '–' : ratio(values.mcpkit, values[server]!));
    lines.push(`| ${label} | ${cell('mcpkit')} | ${cell('sdk')} | ${cell('sdk2')} | ${cell('raw')} | ${vs('raw')} | ${vs('sdk')} | ${vs('sdk2')} |`);
  };
  figure('cold start to first tools/list (ms, stdio)', cold);
  figure('tools/list with 505 tools, p50 (ms, stdio)', list);
  figure('RSS idle (MB)', Object.fromEntries(Object.entries(memory).map(([server, m]) => [server, m.idleMb])));
  const growth = Object.fromEntries(Object.entries(memory).map(([server, m]) => [server, Math.round((m.after20kMb - m.idleMb) * 10) / 10]));
  lines.push(`| RSS growth after the echo calls (MB) | ${growth.mcpkit} | ${growth.sdk} | ${growth.sdk2 ?? '–'} | ${growth.raw} | | | |`);
  return lines.join('\n');
}
