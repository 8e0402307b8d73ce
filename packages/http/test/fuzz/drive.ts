import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { McpHttpHandler, HttpRequest, HttpResult } from '../../src';

/** What one HTTP request got: status, headers, the messages of its body or stream, and how long it took. */
export interface Exchange {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body or the stream's text, as sent. */
  readonly text: string;
  /** Every JSON value the answer carried (a body's, or each SSE event's data). */
  readonly messages: readonly unknown[];
  /** Problems with the answer's form: a body that is not JSON, a stream that did not end. */
  readonly problems: readonly string[];
  /** From the call to the last byte, in ms: a hang detector, not a measure of speed. */
  readonly elapsedMs: number;
}

function sseData(text: string): { messages: unknown[]; problems: string[] } {
  const messages: unknown[] = [];
  const problems: string[] = [];
  for (const block of text.split('\n\n')) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data === '') continue;
    try {
      // A batch's answer is one event holding an array.
      messages.push(...([] as unknown[]).concat(JSON.parse(data)));
    } catch {
      problems.push(`an SSE event whose data is not JSON: ${data.slice(0, 80)}`);
    }
  }
  return { messages, problems };
}

/**
 * Serves one request on the in-process HTTP core and reads its whole answer: a body, or a POST
 * stream to its end. A stream that does not end within `streamMs` of the answer is closed (as a
 * client that gives up) and reported; a standalone GET stream or a listen (`longLived`) is read
 * for one turn and closed.
 */
export async function exchange(handler: McpHttpHandler, request: HttpRequest, streamMs: number, longLived = false): Promise<Exchange> {
  const started = performance.now();
  let closeListener: (() => void) | undefined;
  const result: HttpResult = await handler.handle({ ...request, onClose: (listener) => (closeListener = listener) });
  if (!('stream' in result)) {
    const problems: string[] = [];
    let messages: unknown[] = [];
    if (result.body !== undefined && result.body !== '') {
      try {
        const parsed: unknown = JSON.parse(result.body);
        messages = Array.isArray(parsed) ? parsed : [parsed];
      } catch {
        problems.push(`a body that is not JSON: ${result.body.slice(0, 80)}`);
      }
    }
    return { status: result.status, headers: result.headers, text: result.body ?? '', messages, problems, elapsedMs: performance.now() - started };
  }
  const chunks: string[] = [];
  // A GET stream, or a 2026-07-28 listen: open until the client leaves.
  const standalone = request.method === 'GET' || longLived;
  const ended = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), standalone ? 0 : streamMs);
    result.stream.pipe({
      write: (text) => void chunks.push(text),
      end: () => {
        clearTimeout(timer);
        resolve(true);
      },
      destroy: () => {
        clearTimeout(timer);
        resolve(true);
      },
      bufferedBytes: 0,
    });
  });
  if (!ended) {
    result.stream.close();
    closeListener?.();
  }
  const text = chunks.join('');
  const { messages, problems } = sseData(text);
  if (!ended && !standalone) problems.push(`a POST stream still open ${streamMs} ms after its answer began`);
  return { status: result.status, headers: result.headers, text, messages, problems, elapsedMs: performance.now() - started };
}

type WorkerAnswer = { status: number; body: string | undefined } | { thrown: string };

/**
 * The built packages in a worker thread (template-worker.js): an app of generated resource
 * templates that reads URIs over the HTTP core. A read that takes longer than its bound
 * terminates the worker, since a thread stuck in one regex cannot be interrupted from inside.
 */
export class TemplateWorker {
  private readonly worker = new Worker(join(__dirname, 'template-worker.js'));

  private ask(message: object, boundMs: number): Promise<WorkerAnswer | 'hung'> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.worker.off('message', onMessage);
        void this.worker.terminate();
        resolve('hung');
      }, boundMs);
      const onMessage = (answer: WorkerAnswer) => {
        clearTimeout(timer);
        resolve(answer);
      };
      this.worker.once('message', onMessage);
      this.worker.postMessage(message);
    });
  }

  /** Builds the app of these templates (seconds allowed: the first build loads the packages). */
  async build(templates: readonly string[]): Promise<void> {
    const answer = await this.ask({ templates }, 30_000);
    if (answer === 'hung' || 'thrown' in answer) throw new Error(`the template worker could not build ${JSON.stringify(templates)}: ${JSON.stringify(answer)}`);
  }

  /** Reads `uri` as a 2026-07-28 client: the answer, or 'hung' past `boundMs`. */
  read(uri: string, boundMs: number): Promise<WorkerAnswer | 'hung'> {
    return this.ask({ uri }, boundMs);
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}
