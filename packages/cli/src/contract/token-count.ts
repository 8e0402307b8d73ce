import type { Manifest, ManifestEraName } from './manifest';
import { MANIFEST_ERAS } from './manifest';

/** The BPE encodings `mcpkit lint` counts with: o200k_base (GPT-4o and later), cl100k_base (GPT-4, GPT-3.5). */
export const TOKENIZERS = ['o200k_base', 'cl100k_base'] as const;

/** An encoding `mcpkit lint` counts with. */
export type TokenizerName = (typeof TOKENIZERS)[number];

/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

/** What the CLI uses of a gpt-tokenizer encoding module (typed here: its subpath types need node16 resolution). */
interface Encoding {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

// A description that happens to hold "<|endoftext|>" is text like any other, not a special token.
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * The exact token count of an encoding, from gpt-tokenizer (pure JavaScript, its ranks bundled in
 * the package: nothing is downloaded). Loaded on first use: o200k_base takes ~0.5 s to load.
 */
export function tokenCounter(name: TokenizerName = 'o200k_base'): TokenCounter {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const encoding = (name === 'cl100k_base' ? require('gpt-tokenizer/encoding/cl100k_base') : require('gpt-tokenizer/encoding/o200k_base')) as Encoding;
  /* eslint-enable @typescript-eslint/no-require-imports */
  return (text) => encoding.countTokens(text, AS_TEXT);
}

/** What one tool costs in `tools/list`: its whole entry, and the parts of it that weigh most. */
export interface ToolTokens {
  name: string;
  /** The description, as a JSON string. */
  description: number;
  inputSchema: number;
  outputSchema: number;
  /** The whole entry as it is listed. */
  total: number;
}

/** What one era's `tools/list` and instructions cost a conversation. */
export interface EraTokens {
  era: ManifestEraName;
  /** The `tools/list` result (every tool, one page), as JSON. */
  toolsList: number;
  instructions: number;
  /** `toolsList` + `instructions`: what `--budget` is held to. */
  total: number;
}

/** The token cost of an app's surface, per tool (the newest era's entries) and per era. */
export interface TokenReport {
  tokenizer: TokenizerName;
  tools: ToolTokens[];
  eras: EraTokens[];
  /** The largest era total. */
  total: number;
}

function cost(count: TokenCounter, value: unknown): number {
  return value === undefined ? 0 : count(JSON.stringify(value));
}

/**
 * Counts what the surface costs: each era's `tools/list` result as compact JSON (the canonical
 * form the manifest keeps, one page) plus the instructions, and each tool's entry with its
 * description and schemas apart. Models see tools rendered by their client, so this is the
 * wire cost, the same for every client (with MCP Apps, for every client with the extension: one
 * without gets no `_meta.ui`, and no tool only a view may call).
 */
export function tokenReport(manifest: Manifest, count: TokenCounter, tokenizer: TokenizerName): TokenReport {
  const latest = manifest.eras[MANIFEST_ERAS[0]];
  const tools = latest.tools.map((tool) => ({
    name: tool.name,
    description: cost(count, tool.description),
    inputSchema: cost(count, tool.inputSchema),
    outputSchema: cost(count, tool.outputSchema),
    total: cost(count, tool),
  }));
  const instructions = manifest.instructions === undefined ? 0 : count(manifest.instructions);
  const eras = MANIFEST_ERAS.map((era) => {
    const toolsList = cost(count, { tools: manifest.eras[era].tools });
    return { era, toolsList, instructions, total: toolsList + instructions };
  });
  return { tokenizer, tools, eras, total: Math.max(...eras.map((era) => era.total)) };
}
