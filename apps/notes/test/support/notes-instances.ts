import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { HttpServerProcess } from '@mcpkit/testing';

export const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');
/** notes with lists that change at run time (`add_tool`), scaled out the same way. */
export const DYNAMIC = join(__dirname, 'dynamic-notes.js');

/** What every instance of one deployment shares. */
export interface Deployment {
  redisUrl: string;
  /** One SQLite file for all (WAL mode: several processes read and write it). */
  database: string;
  /** The 2026-07-28 input-required key, the same everywhere. */
  secret: string;
  prefix: string;
}

/** A child process of the notes server in the deployment, on its own port (`PORT=0`); `env` adds to or overrides its environment. */
export function startInstance(deployment: Deployment, name: string, entry = MAIN, env: NodeJS.ProcessEnv = {}): Promise<HttpServerProcess> {
  return HttpServerProcess.start(process.execPath, [entry], {
    REDIS_URL: deployment.redisUrl,
    REDIS_PREFIX: deployment.prefix,
    NOTES_DB: deployment.database,
    MCP_REQUEST_STATE_SECRET: deployment.secret,
    MCP_INSTANCE_ID: name,
    LOG_LEVEL: 'warn',
    ...env,
  });
}

/** SIGKILL, and wait until it is gone: no shutdown code of its own runs. */
export async function kill(instance: HttpServerProcess): Promise<void> {
  instance.child.kill('SIGKILL');
  await instance.exited;
}

/** `http://127.0.0.1:<port>` of an instance. */
export function originOf(instance: HttpServerProcess): string {
  return new URL(instance.url).origin;
}

/**
 * Stops the instances (SIGTERM: each closes its HTTP server, then its Redis connections), then
 * Redis, removes `dir`, and expects every instance to have exited 0.
 */
export async function stopDeployment(instances: readonly HttpServerProcess[], redis: { stop(): Promise<void> } | undefined, dir: string): Promise<void> {
  const exits = await Promise.all(instances.map((instance) => instance.stop()));
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
  expect(exits).toEqual(instances.map(() => ({ code: 0, signal: null })));
}
