import { execFile } from 'node:child_process';

export interface ShResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (at most `timeoutMs`, then SIGTERM) and resolves with its exit code and output; never rejects. */
export function sh(command: string, args: readonly string[], cwd: string, timeoutMs = 240_000): Promise<ShResult> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: { ...process.env, LOG_LEVEL: 'warn' }, maxBuffer: 16 * 1024 * 1024, timeout: timeoutMs }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}
