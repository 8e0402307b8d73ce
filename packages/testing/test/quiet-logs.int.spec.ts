import { execFile } from 'node:child_process';
import { join } from 'node:path';

/** Runs one call through the built TestClient in a process of its own; its stderr is the server's log. */
function run(env: Record<string, string | undefined>): Promise<{ stdout: string; stderr: string }> {
  const childEnv = { ...process.env, ...env };
  // jest's config sets LOG_LEVEL for the suite: each case says whether it has one.
  if (env.LOG_LEVEL === undefined) delete childEnv.LOG_LEVEL;
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [join(__dirname, 'fixtures', 'log-lines.js')], { env: childEnv }, (error, stdout, stderr) =>
      error ? reject(error) : resolve({ stdout, stderr }),
    ),
  );
}

const INFO = /"level":30/;

describe('TestClient logging', () => {
  it('keeps an app on the default logger at warn: no request lines, warnings still shown', async () => {
    const { stdout, stderr } = await run({});
    expect(stdout).toBe('pong\n');
    expect(stderr).not.toMatch(INFO);
    expect(stderr).toContain('"msg":"careful"');
  });

  it('logs at the LOG_LEVEL the environment sets', async () => {
    expect((await run({ LOG_LEVEL: 'info' })).stderr).toMatch(INFO);
  });

  it("leaves the app's own logger as its author set it", async () => {
    expect((await run({ MODE: 'app-logger' })).stderr).toMatch(INFO);
  });

  it('uses the logger given to connect', async () => {
    expect((await run({ MODE: 'client-logger' })).stderr).toMatch(INFO);
  });
});
