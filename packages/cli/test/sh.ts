import { execFile } from 'node:child_process';

export interface ShResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end (at most `timeoutMs`, then SIGTERM) and resolves with its exit code and output; never rejects.
 * `env` defaults to this one's with `LOG_LEVEL=warn`.
 */
export function sh(
  command: string,
  args: readonly string[],
  cwd: string,
  timeoutMs = 240_000,
  env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' },
): Promise<ShResult> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, maxBuffer: 16 * 1024 * 1024, timeout: timeoutMs }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}
