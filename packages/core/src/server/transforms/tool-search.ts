import type { ToolDefinition } from '../../scanner/definitions';

/**
 * The words of a name or a text: camelCase and snake_case split, lowercase. Letters and digits of
 * any script make words (a catalog described in French or Japanese is searched in its language).
 */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

interface Indexed {
  readonly tool: ToolDefinition;
  readonly name: ReadonlySet<string>;
  /** How often each word occurs in the title and description. */
  readonly text: ReadonlyMap<string, number>;
}

/** The words of every tool, and in how many tools each word occurs: built once per app state. */
export interface ToolIndex {
  readonly tools: readonly Indexed[];
  readonly frequency: ReadonlyMap<string, number>;
}

const NAME_WEIGHT = 3;
const PREFIX_WEIGHT = 1.5;
// A word repeated in a description counts up to this many times.
const TEXT_CAP = 3;

export function indexTools(tools: Iterable<ToolDefinition>): ToolIndex {
  const indexed: Indexed[] = [];
  const frequency = new Map<string, number>();
  for (const tool of tools) {
    const name = new Set(wordsOf(tool.name));
    const text = new Map<string, number>();
    for (const word of wordsOf(`${tool.entry.title ?? ''} ${tool.entry.description ?? ''}`)) text.set(word, (text.get(word) ?? 0) + 1);
    for (const word of new Set([...name, ...text.keys()])) frequency.set(word, (frequency.get(word) ?? 0) + 1);
    indexed.push({ tool, name, text });
  }
  return { tools: indexed, frequency };
}

/**
 * The tools that match `query`, best first: each query word weighs by its rarity across the
 * tools (a word every tool has says little), three times as much in the name as in the title and
 * description, half as much again as a prefix of a name's word. Ties go by name; no match, no entry.
 */
export function rankTools(index: ToolIndex, query: string): ToolDefinition[] {
  const words = [...new Set(wordsOf(query))];
  const total = index.tools.length;
  const scored: Array<{ tool: ToolDefinition; score: number }> = [];
  for (const { tool, name, text } of index.tools) {
    let score = 0;
    for (const word of words) {
      const rarity = Math.log(1 + total / (1 + (index.frequency.get(word) ?? 0)));
      let weight = Math.min(text.get(word) ?? 0, TEXT_CAP);
      if (name.has(word)) weight += NAME_WEIGHT;
      else if (word.length >= 3 && [...name].some((own) => own.startsWith(word))) weight += PREFIX_WEIGHT;
      score += rarity * weight;
    }
    if (score > 0) scored.push({ tool, score });
  }
  scored.sort((a, b) => b.score - a.score || (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0));
  return scored.map((entry) => entry.tool);
}
