import { spawn, type ChildProcess } from 'node:child_process';
import type { ExitInfo } from './raw-stdio-client';

const URL_PATTERN = /https?:\/\/[^\s"'`]+\/mcp\b/;

/**
 * A server process under test that listens on HTTP: started with `PORT=0`, it is ready once it
 * prints its MCP URL (on stdout or stderr).
 *
 * @example
 * const server = await HttpServerProcess.start(process.execPath, ['dist/main.js', 'http']);
 * const transport = new StreamableHTTPClientTransport(new URL(server.url));
 * …
 * await server.stop();
 */
export class HttpServerProcess {
  /** Everything the process printed. */
  output = '';
  readonly exited: Promise<ExitInfo>;

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    output: string,
    exited: Promise<ExitInfo>,
  ) {
    this.output = output;
    this.exited = exited;
    const collect = (chunk: Buffer) => (this.output += chunk.toString());
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
  }

  /** Starts the process (with `PORT=0` unless `env` says otherwise) and waits for its URL. */
  static start(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 15_000): Promise<HttpServerProcess> {
    const child = spawn(command, args, { env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<ExitInfo>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    return new Promise((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => fail(new Error(`no MCP URL within ${timeoutMs} ms; output: ${output.slice(-1000)}`)), timeoutMs);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const found = URL_PATTERN.exec(output);
        if (!found) return;
        cleanup();
        resolve(new HttpServerProcess(child, found[0], output, exited));
      };
      const onExit = (code: number | null) => fail(new Error(`server exited with ${code} before listening; output: ${output.slice(-1000)}`));
      function cleanup(): void {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        child.off('exit', onExit);
      }
      function fail(error: Error): void {
        cleanup();
        child.kill('SIGKILL');
        reject(error);
      }
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('exit', onExit);
    });
  }

  /** Waits until the output contains `text`. */
  async waitForOutput(text: string, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.output.includes(text)) {
      if (Date.now() > deadline) throw new Error(`"${text}" not printed within ${timeoutMs} ms; output: ${this.output.slice(-1000)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** SIGTERM, then waits for the exit (SIGKILL after `graceMs`). */
  async stop(graceMs = 5_000): Promise<ExitInfo> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    const info = await this.exited;
    clearTimeout(timer);
    return info;
  }
}
