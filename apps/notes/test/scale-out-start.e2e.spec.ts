import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN } from './support/notes-instances';
import { freePort } from '../../../packages/redis/test/support/redis-server';

// notes with a REDIS_URL nothing answers: it must give up after REDIS_START_TIMEOUT_MS and exit 1,
// never hang without listening (the Redis client retries forever by itself).

it('exits 1 with "could not start" when Redis cannot be reached within REDIS_START_TIMEOUT_MS', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'notes-no-redis-'));
  try {
    const port = await freePort();
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        PORT: '0',
        NOTES_DB: join(dir, 'notes.db'),
        REDIS_URL: `redis://127.0.0.1:${port}`,
        REDIS_START_TIMEOUT_MS: '500',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    clearTimeout(timer);
    expect(code).toBe(1);
    expect(output).toContain('notes server could not start: Redis could not be reached within 500 ms');
    expect(output).not.toContain('listening');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
