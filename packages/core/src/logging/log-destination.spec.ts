import { spawn, type ChildProcess } from 'node:child_process';
import fs, { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogDestination } from './log-destination';

const LINE = '{"level":30,"msg":"request"}\n';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('LogDestination', () => {
  let dir: string;
  let file: string;
  let fd: number;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-log-'));
    file = join(dir, 'log');
    fd = openSync(file, 'a');
  });

  afterEach(() => {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });

  const written = () => readFileSync(file, 'utf8');

  describe('write', () => {
    it('holds lines below bufferSize until flushIntervalMs has passed', async () => {
      const destination = new LogDestination({ fd, bufferSize: 1024, flushIntervalMs: 50 });
      destination.write(LINE);
      destination.write(LINE);
      expect(written()).toBe('');
      expect(destination.pending).toBe(2 * LINE.length);
      await sleep(150);
      expect(written()).toBe(LINE + LINE);
      expect(destination.pending).toBe(0);
    });

    it('writes the batch at once when it reaches bufferSize', () => {
      const destination = new LogDestination({ fd, bufferSize: 3 * LINE.length, flushIntervalMs: 60_000 });
      destination.write(LINE);
      destination.write(LINE);
      expect(written()).toBe('');
      destination.write(LINE);
      expect(written()).toBe(LINE.repeat(3));
    });

    it('writes every line at once with bufferSize 0 (createLogger({ sync: true }))', () => {
      const destination = new LogDestination({ fd, bufferSize: 0 });
      destination.write(LINE);
      expect(written()).toBe(LINE);
    });

    it('keeps multi-byte characters whole', () => {
      const destination = new LogDestination({ fd, bufferSize: 1024 });
      destination.write('{"msg":"héllo ✓ 🎉"}\n');
      destination.flushSync();
      expect(written()).toBe('{"msg":"héllo ✓ 🎉"}\n');
    });

    it('writes batches of every size whole, one after the other (the scratch buffer is reused, or too small)', () => {
      const destination = new LogDestination({ fd, bufferSize: 1_000_000, flushIntervalMs: 60_000 });
      const small = '{"msg":"✓ small"}\n';
      const large = `{"msg":"${'é'.repeat(40_000)}"}\n`;
      for (const line of [small, large, small, small]) {
        destination.write(line);
        destination.flushSync();
      }
      expect(written()).toBe(small + large + small + small);
    });
  });

  describe('flushSync', () => {
    it('writes everything that waits before it returns', () => {
      const destination = new LogDestination({ fd, bufferSize: 1 << 20, flushIntervalMs: 60_000 });
      for (let i = 0; i < 1000; i++) destination.write(LINE);
      destination.flushSync();
      expect(written()).toBe(LINE.repeat(1000));
    });
  });

  describe('a pipe that takes nothing', () => {
    let reader: ChildProcess | undefined;

    afterEach(() => {
      reader?.kill('SIGKILL');
      reader = undefined;
    });

    // A child that reads its stdin only after `GO` arrives on a side channel (here: a delay), then
    // reports how many bytes and which last line it got.
    function slowReader(delayMs: number): { child: ChildProcess; pipeFd: number; report: Promise<string> } {
      const script = `setTimeout(() => { let n = 0, tail = ''; process.stdin.on('data', (c) => { n += c.length; tail = (tail + c).slice(-300); }); process.stdin.on('end', () => process.stdout.write(n + '\\n' + tail)); }, ${delayMs});`;
      const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'ignore'] });
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      const report = new Promise<string>((resolve) => child.on('exit', () => resolve(out)));
      // libuv made our end non-blocking: a full pipe answers EAGAIN instead of blocking.
      const pipeFd = (child.stdin as unknown as { _handle: { fd: number } })._handle.fd;
      return { child, pipeFd, report };
    }

    it('never blocks: keeps what did not fit, drops past maxBufferSize, then catches up and says how many it dropped', async () => {
      const { child, pipeFd, report } = slowReader(700);
      reader = child;
      const destination = new LogDestination({ fd: pipeFd, bufferSize: 4096, flushIntervalMs: 20, maxBufferSize: 256 * 1024 });
      const line = `{"level":30,"pad":"${'x'.repeat(200)}"}\n`;
      // Far more than a pipe holds (64 KiB to a few hundred KiB) plus maxBufferSize. A writer that
      // blocked until the reader drained would hold nothing back and drop nothing.
      for (let i = 0; i < 8000; i++) destination.write(line);
      expect(destination.pending).toBeGreaterThan(0);
      expect(destination.pending).toBeLessThanOrEqual(256 * 1024);
      expect(destination.dropped).toBeGreaterThan(0);
      // The reader starts; the retries drain what waits, then the report of the drops.
      const deadline = Date.now() + 10_000;
      while (destination.pending > 0 && Date.now() < deadline) await sleep(20);
      destination.flushSync();
      expect(destination.pending).toBe(0);
      child.stdin!.end();
      const received = await report;
      const bytes = received.slice(0, received.indexOf('\n'));
      const tail = received.slice(received.indexOf('\n') + 1);
      expect(Number(bytes) % line.length).toBeGreaterThan(0); // the drop report is not a padded line
      expect(tail).toContain(`"msg":"${destination.dropped} log line(s) dropped`);
    }, 20_000);

    it('gives a reader that takes nothing its second once per exit: a later flushSync makes one attempt', () => {
      // (A signal's flush then the exit's used to wait a second each: grace + 2 s, hostile review F3.)
      const { child, pipeFd } = slowReader(60_000);
      reader = child;
      const destination = new LogDestination({ fd: pipeFd, bufferSize: 1 << 20, flushIntervalMs: 60_000 });
      const line = `{"level":30,"pad":"${'x'.repeat(200)}"}\n`;
      for (let i = 0; i < 8000; i++) destination.write(line); // far more than the pipe holds
      destination.flushSync(); // retries for its second, then gives the rest up
      expect(destination.pending).toBeGreaterThan(0);
      const writes = jest.spyOn(fs, 'writeSync');
      try {
        destination.flushSync();
        expect(writes).toHaveBeenCalledTimes(1);
      } finally {
        writes.mockRestore();
      }
      expect(destination.pending).toBeGreaterThan(0);
    });

    it('stops quietly when the reader is gone (EPIPE)', async () => {
      const { child, pipeFd } = slowReader(0);
      reader = child;
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const destination = new LogDestination({ fd: pipeFd, bufferSize: 0 });
      expect(() => {
        destination.write(LINE);
        destination.write(LINE);
        destination.flushSync();
      }).not.toThrow();
      expect(destination.pending).toBe(0);
    });
  });
});
