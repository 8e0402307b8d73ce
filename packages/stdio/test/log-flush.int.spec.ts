import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

// The default logger buffers its lines; each way a process can end must still write them all.
// The fixture logs LINES lines (its flush timer set to ten minutes), then ends as told.
const FIXTURE = join(__dirname, 'fixtures', 'buffered-logger.js');
const LINES = 100; // about 9 KB: under the 16 KiB that would send a batch at once

interface Run {
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function start(mode: string): Promise<Run> {
  const child = spawn(process.execPath, [FIXTURE, mode], { env: { ...process.env, LINES: String(LINES) }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let stdout = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "logged" from the fixture; stderr: ${stderr}`)), 10_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('logged')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { child, stderr: () => stderr, exited };
}

function records(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split('\n')
    .filter((line) => line !== '' && line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function expectAllLines(stderr: string): void {
  const numbers = records(stderr)
    .filter((record) => record.msg === 'line')
    .map((record) => record.n);
  expect(numbers).toEqual(Array.from({ length: LINES }, (_, n) => n));
}

describe('buffered logging is written however the process ends', () => {
  let run: Run | undefined;

  afterEach(async () => {
    if (run && run.child.exitCode === null && run.child.signalCode === null) {
      run.child.kill('SIGKILL');
      await run.exited;
    }
    run = undefined;
  });

  it('holds the lines while the process runs (the test below would prove nothing otherwise)', async () => {
    run = await start('wait');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(run.stderr()).toBe('');
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('writes them on %s, and the signal still ends the process', async (signal) => {
    run = await start('wait');
    run.child.kill(signal);
    expect(await run.exited).toEqual({ code: null, signal });
    expectAllLines(run.stderr());
  });

  it('writes them on a signal the app handles itself, leaving the exit to the app', async () => {
    run = await start('wait-handled');
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 3, signal: null });
    expectAllLines(run.stderr());
  });

  it.each(['exit', 'end'])('writes them on a normal exit (%s)', async (mode) => {
    run = await start(mode);
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expectAllLines(run.stderr());
  });

  it('logs an uncaught exception at fatal after them, then exits 1', async () => {
    run = await start('throw');
    expect(await run.exited).toEqual({ code: 1, signal: null });
    expectAllLines(run.stderr());
    const fatal = records(run.stderr()).find((record) => record.level === 60);
    expect(fatal).toMatchObject({ msg: 'uncaught exception; exiting', err: { message: 'boom from the fixture' } });
    // Node's own report follows, as without the logger.
    expect(run.stderr()).toContain('Error: boom from the fixture');
  });

  it('logs an unhandled rejection at fatal after them, then exits 1', async () => {
    run = await start('reject');
    expect(await run.exited).toEqual({ code: 1, signal: null });
    expectAllLines(run.stderr());
    expect(records(run.stderr()).find((record) => record.level === 60)).toMatchObject({
      msg: 'unhandled promise rejection; exiting',
      err: { message: 'rejected in the fixture' },
    });
  });

  it('does not call an exception fatal when the app handles it, and keeps running', async () => {
    run = await start('caught');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(run.child.exitCode).toBeNull();
    run.child.kill('SIGTERM');
    await run.exited;
    expectAllLines(run.stderr());
    expect(records(run.stderr()).some((record) => record.msg === 'survived')).toBe(true);
    expect(records(run.stderr()).some((record) => record.level === 60)).toBe(false);
  });
});
