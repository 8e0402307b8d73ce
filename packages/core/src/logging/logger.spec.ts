import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flushLogs } from './exit-hooks';
import { createLogger } from './logger';

describe('createLogger', () => {
  let dir: string;
  let file: string;
  let fd: number;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-logger-'));
    file = join(dir, 'log');
    fd = openSync(file, 'a');
  });

  afterEach(() => {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });

  const lines = () =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('buffers by default and writes on flushLogs()', () => {
    const logger = createLogger({ fd, level: 'info', name: 'unit' });
    logger.info({ n: 1 }, 'first');
    expect(lines()).toEqual([]);
    flushLogs();
    expect(lines()).toEqual([expect.objectContaining({ level: 30, name: 'unit', n: 1, msg: 'first' })]);
  });

  it('writes every line at once with sync: true', () => {
    const logger = createLogger({ fd, level: 'info', sync: true });
    logger.info('now');
    expect(lines()).toEqual([expect.objectContaining({ msg: 'now' })]);
  });

  it('writes what waits right after a fatal line', () => {
    const logger = createLogger({ fd, level: 'info' });
    logger.info('before');
    logger.fatal('going down');
    expect(lines().map((line) => line.msg)).toEqual(['before', 'going down']);
  });

  it('takes LOG_LEVEL when no level is given, else info', () => {
    const saved = process.env.LOG_LEVEL;
    try {
      process.env.LOG_LEVEL = 'error';
      expect(createLogger({ fd }).level).toBe('error');
      delete process.env.LOG_LEVEL;
      expect(createLogger({ fd }).level).toBe('info');
    } finally {
      if (saved === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = saved;
    }
  });
});
