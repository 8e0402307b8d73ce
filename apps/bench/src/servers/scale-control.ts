// The bench's hold on a scale server (pnpm bench:scale): over the IPC channel of its parent, it
// measures memory after a full GC (the process runs with --expose-gc), reads its own CPU time and
// announces one resource update. Shared by the mcpkit, SDK and raw scale servers.

/** What a scale server reports of itself after a full GC. */
export interface MemoryFigure {
  heapUsed: number;
  rss: number;
}

/** A request of the bench: `memory`, `cpu` (µs, user + system) or `update` (one resource update). */
export type ControlRequest = { id: number; kind: 'memory' | 'cpu' | 'update' };

/** Answers the bench's requests on the IPC channel; `update` runs `announce` once. */
export function serveControl(announce: () => void): void {
  if (!process.send) return;
  process.on('message', (request: ControlRequest) => {
    let value: unknown;
    if (request.kind === 'memory') value = afterGc();
    else if (request.kind === 'cpu') value = cpuMicros();
    else value = (announce(), true);
    process.send!({ id: request.id, value });
  });
  // The channel is the bench: when it goes, so does this server.
  process.on('disconnect', () => process.exit(0));
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

function afterGc(): MemoryFigure {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('a scale server runs with --expose-gc');
  // Twice: the first pass can leave work to finalizers that the second collects.
  gc();
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}
