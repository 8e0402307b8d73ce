import { HttpServerProcess } from '@mcpkit/testing';
import type { ClientTarget } from '../../src';

/** A server under test: how the client reaches it, and how to stop it afterwards. */
export interface ServerUnderTest {
  target: ClientTarget;
  stop(): Promise<void>;
}

/**
 * A server script (`node <script> stdio | http`) over `transport`: spawned by the client itself
 * (stdio), or started here on a free loopback port (HTTP, `PORT=0`) for the client to reach.
 */
export async function serverUnderTest(
  script: string,
  transport: 'stdio' | 'http',
  env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' },
): Promise<ServerUnderTest> {
  if (transport === 'stdio') return { target: { command: process.execPath, args: [script, 'stdio'], env, stderr: 'pipe' }, stop: async () => undefined };
  const server = await HttpServerProcess.start(process.execPath, [script, 'http'], env);
  return { target: { url: server.url }, stop: async () => void (await server.stop()) };
}
