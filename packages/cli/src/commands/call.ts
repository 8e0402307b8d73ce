import { TestClient } from '@mcpkit/testing';
import { CliError, EXIT } from '../cli-error';
import { formatContent, formatResourceContents } from '../format-content';
import { loadApp, resolveEntry } from '../load-app';
import { out } from '../output';
import { CLI_VERSION } from '../version';

export interface CallOptions {
  args?: string;
  resource?: string;
  prompt?: string;
  json?: boolean;
  /** `modern` calls as a 2026-07-28 client: `_meta` per request, results with resultType and cache hints. */
  era?: 'legacy' | 'modern';
  /** The export that is the app (or returns it). */
  export?: string;
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
  const client = await TestClient.connect(loadApp(resolveEntry(entry), { export: options.export }), {
    era: options.era,
    clientInfo: { name: 'mcpkit-cli', version: CLI_VERSION },
  });
  try {
    if (options.resource) {
      const result = await client.readResource(options.resource);
      out(options.json ? JSON.stringify(result, null, 2) : result.contents.map(formatResourceContents).join('\n'));
      return EXIT.OK;
    }
    if (options.prompt) {
      const result = await client.getPrompt(
        options.prompt,
        Object.fromEntries(Object.entries(args).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)])),
      );
      out(options.json ? JSON.stringify(result, null, 2) : result.messages.map((message) => `${message.role}: ${formatContent(message.content)}`).join('\n'));
      return EXIT.OK;
    }
    if (!target) throw new CliError('Name the tool to call', 'mcpkit call <tool> [key=value …], or --resource <uri>, or --prompt <name>');
    const result = await client.callTool(target, args);
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
