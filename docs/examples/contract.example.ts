import { buildManifest, diffManifests, formatDiff, lintManifest, parseManifest, tokenCounter, tokenReport } from '@mcpkit/cli';
import { createApp, Field, Tool } from '@mcpkit/core';
import { IsString, MaxLength } from 'class-validator';

class SearchInput {
  @Field({ description: 'Words the notes must contain' })
  @IsString()
  @MaxLength(200)
  query: string;
}

class NotesSearch {
  @Tool({ description: 'Finds the notes that contain every word of the query', annotations: { readOnlyHint: true } })
  search_notes(input: SearchInput): string {
    return `no note contains ${input.query}`;
  }
}

// A warning at start-up when tools/list and the instructions cost more than 2000 tokens (estimated).
export const searchApp = createApp({ name: 'search', version: '1.1.0', providers: [NotesSearch], tokenBudget: 2000 });

/**
 * What `mcpkit diff` and `mcpkit lint --budget` do, in-process: the app's manifest against the one
 * of the last release (the text of its mcp-manifest.json), and the lint with exact token counts.
 */
export function reviewContract(released: string): { markdown: string; breaking: number; lintErrors: number; tokens: number } {
  const manifest = buildManifest(searchApp);
  const diff = diffManifests(parseManifest(released, 'mcp-manifest.json'), manifest);
  const tokens = tokenReport(manifest, tokenCounter('o200k_base'), 'o200k_base');
  const lint = lintManifest(manifest, { budget: 2000 }, tokens);
  return { markdown: formatDiff(diff, 'markdown'), breaking: diff.counts.breaking, lintErrors: lint.counts.error, tokens: tokens.total };
}
