import { execFile } from 'node:child_process';
import { join } from 'node:path';

// `mcpkit call --task` (#17): the tool runs as a task, its status goes to stderr, its result to stdout.
const CLI = join(__dirname, '..', 'dist', 'cli.js');
const TASKS = join(__dirname, 'fixtures', 'tasks-app.js');

function mcpkit(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...process.env, LOG_LEVEL: 'warn' } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe.each(['legacy', 'modern'])('mcpkit call --task (--era %s)', (era) => {
  it('shows the status until the task ends, then prints its result', async () => {
    const { code, stdout, stderr } = await mcpkit(['call', 'build', '--task', '--era', era, TASKS]);
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'built\n' });
    expect(stderr).toMatch(/^task [0-9a-f-]{36}: working/m);
    expect(stderr).toMatch(/: working \(compile\)$/m);
    expect(stderr).toMatch(/: completed \(pack\)$/m);
  });

  it('fails (exit 1) with the error of a failed task', async () => {
    const { code, stderr } = await mcpkit(['call', 'crash', '--task', '--era', era, TASKS]);
    expect(code).toBe(1);
    expect(stderr).toContain('the build machine caught fire');
    expect(stderr).toContain('-32603');
  });

  it('says so when a tool runs inline', async () => {
    const result = await mcpkit(['call', 'quick', '--task', '--era', era, TASKS]);
    if (era === 'modern') expect(result).toMatchObject({ code: 0, stdout: 'inline\n', stderr: expect.stringContaining('ran inline') });
    // 2025-11-25 refuses a task for a tool that has none.
    else expect(result).toMatchObject({ code: 1, stderr: expect.stringContaining('-32601') });
  });
});
