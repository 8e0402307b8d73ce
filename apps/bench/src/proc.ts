import { readdirSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';

// Linux reports CPU time in clock ticks of 1/100 s (USER_HZ).
const TICK_US = 10_000;

/** User + system CPU time in µs of one `stat` file of /proc. */
function statMicros(path: string): number {
  const stat = readFileSync(path, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

/**
 * User + system CPU time of a process, in µs (from /proc: the least noisy figure). It is the
 * whole process: `/proc/<pid>/stat` adds up every thread (the main one, V8's garbage collector
 * and compiler threads, libuv's pool), those that ended too.
 */
export function cpuMicros(pid: number): number {
  return statMicros(`/proc/${pid}/stat`);
}

/** User + system CPU time of a process's main thread alone (the event loop), in µs. */
export function mainThreadCpuMicros(pid: number): number {
  return statMicros(`/proc/${pid}/task/${pid}/stat`);
}

/** Resident memory of a process, in MB. */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on the port (bounded). */
export async function waitForPort(port: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A process and its descendants, from the parent ids in /proc (processes that end meanwhile are skipped). */
export function processTree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone between the listing and the read.
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(parents.get(tree[i]) ?? []));
  return tree;
}
