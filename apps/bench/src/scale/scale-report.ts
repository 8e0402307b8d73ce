// The tables of pnpm bench:scale, and whether each goal of issue #31 §4 is met.
import type { ScaleOutMeasurement } from '../run';

export type ScaleServer = 'mcpkit' | 'sdk' | 'raw';

export interface MemoryPerSession {
  heapBytes: number;
  rssBytes: number;
}

export interface FanOut {
  /** From the update to the last subscriber's delivery, as the client saw it. */
  ms: number;
  /** The server's CPU time over the same stretch (process.cpuUsage). */
  cpuMs: number;
}

export interface ListFigure {
  tools: number;
  p50Ms: number;
  p99Ms: number;
  /** o200k_base tokens of the `tools/list` result as JSON (@mcpkit/cli's tokenCounter). */
  tokens: number;
  bytes: number;
}

export interface ScaleResults {
  date: string;
  node: string;
  smoke: boolean;
  /** Load averages (1, 5, 15 minutes) when the run began and ended: the machine is shared. */
  load: { start: number[]; end: number[] };
  seconds?: number;
  /** server → sessions → bytes per idle session. */
  memory: Partial<Record<ScaleServer, Record<string, MemoryPerSession>>>;
  /** `server, stream kind` → subscribers → one update's fan-out. */
  fanOut: Record<string, Record<string, FanOut>>;
  toolsList: Partial<Record<ScaleServer, ListFigure>>;
  /** `memory stores|16`, `Redis stores|16` … (run.ts's scale-out figures). */
  redis: Record<string, ScaleOutMeasurement>;
}

export const FAN_OUT_GOAL_MS = 1_000;
export const MEMORY_GOAL = 0.1;
export const REDIS_GOAL = 1.5;

const LABELS: Record<ScaleServer, string> = { mcpkit: 'mcpkit', sdk: 'official SDK', raw: 'raw' };
const kb = (bytes: number | undefined) => (bytes === undefined ? '—' : `${(bytes / 1024).toFixed(1)} KB`);
const ratio = (value: number) => `${value.toFixed(2)}×`;
const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
const head = (cells: string[]) => [row(cells), row(cells.map(() => '---'))];

function largest(record: Record<string, unknown> | undefined): string | undefined {
  const keys = Object.keys(record ?? {}).sort((a, b) => Number(a) - Number(b));
  return keys[keys.length - 1];
}

export interface Goal {
  goal: string;
  figure: string;
  met: boolean;
}

/** Each goal of #31 §4, judged on the largest count measured. */
export function goals(results: ScaleResults): Goal[] {
  const judged: Goal[] = [];
  const sessions = largest(results.memory.mcpkit);
  const mine = sessions === undefined ? undefined : results.memory.mcpkit?.[sessions];
  const sdk = sessions === undefined ? undefined : results.memory.sdk?.[sessions];
  if (mine && sdk) {
    const share = mine.heapBytes / sdk.heapBytes;
    judged.push({
      goal: `memory per idle session ≤ 1/10 of the SDK's (heap, ${sessions} sessions)`,
      figure: `${kb(mine.heapBytes)} against ${kb(sdk.heapBytes)}: ${ratio(share)}`,
      met: share <= MEMORY_GOAL,
    });
  }
  for (const [kind, figures] of Object.entries(results.fanOut)) {
    if (!kind.startsWith('mcpkit')) continue;
    const count = largest(figures)!;
    judged.push({
      goal: `one update to ${count} subscribers within 1 s (${kind})`,
      figure: `${figures[count].ms} ms`,
      met: figures[count].ms <= FAN_OUT_GOAL_MS,
    });
  }
  for (const inFlight of ['1', '16']) {
    const memory = results.redis[`memory stores|${inFlight}`];
    const redis = results.redis[`Redis stores|${inFlight}`];
    if (!memory || !redis) continue;
    const share = redis.cpuUsPerCall / memory.cpuUsPerCall;
    judged.push({
      goal: `Redis-backed call ≤ 1.5× the in-memory server CPU (${inFlight} in flight)`,
      figure: `${redis.cpuUsPerCall} µs against ${memory.cpuUsPerCall} µs: ${ratio(share)}`,
      met: share <= REDIS_GOAL,
    });
  }
  return judged;
}

function memoryTable(results: ScaleResults): string[] {
  const servers = (['mcpkit', 'sdk', 'raw'] as const).filter((server) => results.memory[server]);
  const counts = Object.keys(results.memory.mcpkit ?? {}).sort((a, b) => Number(a) - Number(b));
  const lines = head(['idle sessions', ...servers.map((s) => `${LABELS[s]} heap`), ...servers.map((s) => `${LABELS[s]} RSS`), 'mcpkit vs SDK (heap)']);
  for (const count of counts) {
    const per = (server: ScaleServer) => results.memory[server]?.[count];
    const share = per('sdk') ? ratio(per('mcpkit')!.heapBytes / per('sdk')!.heapBytes) : '—';
    lines.push(row([count, ...servers.map((s) => kb(per(s)?.heapBytes)), ...servers.map((s) => kb(per(s)?.rssBytes)), share]));
  }
  return lines;
}

function fanOutTable(results: ScaleResults): string[] {
  const lines = head(['server, streams', 'subscribers', 'to the last delivery', 'server CPU']);
  for (const [kind, figures] of Object.entries(results.fanOut)) {
    for (const [count, figure] of Object.entries(figures)) lines.push(row([kind, count, `${figure.ms} ms`, `${figure.cpuMs} ms`]));
  }
  return lines;
}

function listTable(results: ScaleResults): string[] {
  const lines = head(['server', 'tools', 'p50', 'p99', 'tokens (o200k_base)', 'bytes']);
  for (const server of ['mcpkit', 'sdk', 'raw'] as const) {
    const figure = results.toolsList[server];
    if (figure) lines.push(row([LABELS[server], figure.tools, `${figure.p50Ms} ms`, `${figure.p99Ms} ms`, figure.tokens, figure.bytes]));
  }
  return lines;
}

function redisTable(results: ScaleResults): string[] {
  const lines = head([
    '`echo`, HTTP with a session',
    'in flight',
    'calls/s',
    'p50 ms',
    'p99 ms',
    'server CPU µs/call',
    'Redis CPU µs/call',
    'server CPU vs memory',
  ]);
  for (const inFlight of ['1', '16']) {
    const memory = results.redis[`memory stores|${inFlight}`];
    for (const stores of ['memory stores', 'Redis stores']) {
      const figure = results.redis[`${stores}|${inFlight}`];
      if (!figure || !memory) continue;
      lines.push(
        row([
          `mcpkit, ${stores}`,
          inFlight,
          figure.callsPerSecond,
          figure.p50Ms,
          figure.p99Ms,
          figure.cpuUsPerCall,
          figure.redisCpuUsPerCall,
          ratio(figure.cpuUsPerCall / memory.cpuUsPerCall),
        ]),
      );
    }
  }
  return lines;
}

/** The generated section of docs/benchmarks.md: the run, the goals, then one table per figure. */
export function renderScale(results: ScaleResults): string {
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
  const judged = results.smoke ? [] : goals(results);
  return [
    `Run of ${results.date.slice(0, 10)} on Node ${results.node}${results.smoke ? ' (smoke: tiny counts, goals not judged)' : ''}, ${results.seconds ?? '?'} s in all; load average (1 / 5 / 15 min) ${load(results.load.start)} at the start, ${load(results.load.end)} at the end, on 2 cores.`,
    '',
    ...(judged.length > 0 ? [...head(['goal', 'figure', '']), ...judged.map((goal) => row([goal.goal, goal.figure, goal.met ? 'met' : '**missed**']))] : []),
    '',
    'Memory per idle session (HTTP, handshake era; heap and RSS growth after a full GC, divided by the sessions):',
    '',
    ...memoryTable(results),
    '',
    'One `notifications/resources/updated` fanned out to every subscriber:',
    '',
    ...fanOutTable(results),
    '',
    '`tools/list` over stdio (handshake era):',
    '',
    ...listTable(results),
    '',
    'Sessions on Redis against sessions in memory:',
    '',
    ...redisTable(results),
  ].join('\n');
}
