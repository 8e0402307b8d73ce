import { TestClient } from '@mcpkit/testing';
import { CliError, EXIT } from '../cli-error';
import type { CallEra } from '../eras/call-eras';
import { formatContent, formatResourceContents } from '../format-content';
import { loadApp, resolveEntry } from '../load-app';
import { out } from '../output';
import { CLI_VERSION } from '../version';
import { callAsTask, TASKS_EXTENSION } from './call-task';

export interface CallOptions {
  args?: string;
  resource?: string;
  prompt?: string;
  json?: boolean;
  /** `modern` calls as a 2026-07-28 client: `_meta` per request, results with resultType and cache hints. */
  era?: CallEra;
  /** The export that is the app (or returns it). */
  export?: string;
  /** How long to wait for the answer, in ms (default 60 000; 0: no limit). */
  timeout?: string;
  /** Run the tool as a task and show its status until it ends. */
  task?: boolean;
}

/** The default of `--timeout`: a minute. */
const DEFAULT_CALL_TIMEOUT_MS = 60_000;

function parseTimeout(text: string | undefined): number {
  if (text === undefined) return DEFAULT_CALL_TIMEOUT_MS;
  const ms = Number(text);
  if (text.trim() === '' || !Number.isInteger(ms) || ms < 0)
    throw new CliError(
      `--timeout must be a whole number of milliseconds, not ${text}`,
      'For example: --timeout 120000 (two minutes); --timeout 0 waits for ever.',
    );
  return ms;
}

/**
 * `--timeout 0`: `work`, however long it takes; but when nothing is left that could settle it
 * (the process is about to end on its own), a failure rather than silence and exit 0.
 */
async function withoutLimit<T>(work: Promise<T>, what: string): Promise<T> {
  let ending: (() => void) | undefined;
  const never = new Promise<never>((_, reject) => {
    ending = () =>
      reject(
        new CliError(
          `no answer from ${what}: nothing it waits for is pending, so it can never answer`,
          'The handler returned a promise that nothing settles.',
          EXIT.FAILURE,
        ),
      );
    process.once('beforeExit', ending);
  });
  try {
    return await Promise.race([work, never]);
  } finally {
    process.off('beforeExit', ending!);
  }
}

/**
 * `work`, or a failure once `ms` pass without its answer (a handler that never settles would
 * otherwise leave the command printing nothing and exiting 0 once nothing else is pending).
 */
async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  if (ms === 0) return withoutLimit(work, what);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // The request is cancelled (client.close()); a handler that ignores that and holds a timer
      // or a socket must not keep the command from ending.
      setTimeout(() => process.exit(), 1_000).unref();
      reject(
        new CliError(
          `no answer within ${ms} ms from ${what}`,
          'The handler has not settled, so it was cancelled; --timeout <ms> waits longer (0: for ever).',
          EXIT.FAILURE,
        ),
      );
    }, ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** `key=value` pairs as an object: a value that parses as JSON is that value, else a string. */
export function parsePairs(pairs: readonly string[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0)
      throw new CliError(`Not a key=value pair: ${pair}`, 'Write arguments as name=value (values that are JSON are parsed: count=3, tags=\'["a"]\').');
    const raw = pair.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // A plain string.
    }
    result[pair.slice(0, eq)] = value;
  }
  return result;
}

function parseArgsJson(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliError('--args is not valid JSON', `Quote it for your shell: --args '{"text":"hi"}'`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CliError('--args must be a JSON object', `For example: --args '{"a":1,"b":2}'`);
  return value as Record<string, unknown>;
}

/**
 * `mcpkit call <tool> [key=value …] [entry]`: runs the app in-process and calls one tool (or
 * reads `--resource`, gets `--prompt`). Prints the text (or `--json` the whole result); exit 1 on
 * `isError` or a JSON-RPC error.
 */
export async function call(target: string | undefined, rest: readonly string[], options: CallOptions): Promise<number> {
  const positionals = options.resource || options.prompt ? [target, ...rest].filter((item): item is string => item !== undefined) : [...rest];
  const entry = positionals.length > 0 && !positionals[positionals.length - 1].includes('=') ? positionals.pop() : undefined;
  const args = { ...parseArgsJson(options.args), ...parsePairs(positionals) };
  const timeoutMs = parseTimeout(options.timeout);
  const client = await TestClient.connect(loadApp(resolveEntry(entry), { export: options.export }), {
    era: options.era,
    clientInfo: { name: 'mcpkit-cli', version: CLI_VERSION },
    // Only --task declares the tasks extension: without it, a task tool answers inline as before.
    ...(options.task ? { capabilities: { extensions: { [TASKS_EXTENSION]: {} } } } : {}),
  });
  try {
    if (options.resource) {
      const result = await withTimeout(client.readResource(options.resource), timeoutMs, `resource ${options.resource}`);
      out(options.json ? JSON.stringify(result, null, 2) : result.contents.map(formatResourceContents).join('\n'));
      return EXIT.OK;
    }
    if (options.prompt) {
      const result = await withTimeout(
        client.getPrompt(
          options.prompt,
          Object.fromEntries(Object.entries(args).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)])),
        ),
        timeoutMs,
        `prompt ${options.prompt}`,
      );
      out(options.json ? JSON.stringify(result, null, 2) : result.messages.map((message) => `${message.role}: ${formatContent(message.content)}`).join('\n'));
      return EXIT.OK;
    }
    if (!target) throw new CliError('Name the tool to call', 'mcpkit call <tool> [key=value …], or --resource <uri>, or --prompt <name>');
    const result = await withTimeout(options.task ? callAsTask(client, target, args) : client.callTool(target, args), timeoutMs, `tool ${target}`);
    // No content but structured content: that is the answer.
    const text = result.content.map(formatContent).join('\n') || (result.structuredContent ? JSON.stringify(result.structuredContent, null, 2) : '');
    out(options.json ? JSON.stringify(result, null, 2) : text);
    return result.isError ? EXIT.FAILURE : EXIT.OK;
  } catch (error) {
    const rpc = error as { code?: number; message?: string };
    if (typeof rpc.code === 'number') throw new CliError(`${rpc.message} (JSON-RPC ${rpc.code})`, 'mcpkit inspect lists what the app offers.', EXIT.FAILURE);
    throw error;
  } finally {
    client.close();
  }
}
