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
  lines.push('', '| figure | mcpkit | SDK | raw | mcpkit vs raw | mcpkit vs SDK |', '| --- | --- | --- | --- | --- | --- |');
  lines.push(`| cold start to first tools/list (ms, stdio) | ${cold.mcpkit} | ${cold.sdk} | ${cold.raw} | ${ratio(cold.mcpkit, cold.raw)} | ${ratio(cold.mcpkit, cold.sdk)} |`);
  lines.push(`| tools/list with 505 tools, p50 (ms, stdio) | ${list.mcpkit} | ${list.sdk} | ${list.raw} | ${ratio(list.mcpkit, list.raw)} | ${ratio(list.mcpkit, list.sdk)} |`);
  lines.push(`| RSS idle (MB) | ${memory.mcpkit.idleMb} | ${memory.sdk.idleMb} | ${memory.raw.idleMb} | ${ratio(memory.mcpkit.idleMb, memory.raw.idleMb)} | ${ratio(memory.mcpkit.idleMb, memory.sdk.idleMb)} |`);
  const growth = (server: string) => Math.round((memory[server].after20kMb - memory[server].idleMb) * 10) / 10;
  lines.push(`| RSS growth after the echo calls (MB) | ${growth('mcpkit')} | ${growth('sdk')} | ${growth('raw')} | | |`);
  return lines.join('\n');
}
