import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp, defineResource, defineTool, Tool } from '@mcpkit/core';
import { IsNumber } from 'class-validator';

// In a real server this list comes from a config file: each entry becomes one tool.
export const conversions = [
  { name: 'km_to_miles', description: 'Kilometres to miles', factor: 0.621371 },
  { name: 'kg_to_pounds', description: 'Kilograms to pounds', factor: 2.20462 },
  { name: 'litres_to_gallons', description: 'Litres to US gallons', factor: 0.264172 },
];

export class Amount {
  @IsNumber()
  value: number;
}

const tools = conversions.map(({ name, description, factor }) =>
  // The options of @Tool, name required; the handler gets the validated Amount and the context.
  defineTool({ name, description, input: Amount, annotations: { readOnlyHint: true } }, (input) => String(Math.round(input.value * factor * 1000) / 1000)),
);

// One resource per Markdown file of the folder, found at start-up and read when a client asks.
function notesIn(folder: string) {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) =>
      defineResource({ uri: `notes:///${encodeURIComponent(entry.name)}`, name: entry.name, mimeType: 'text/markdown' }, () =>
        readFileSync(join(folder, entry.name), 'utf8'),
      ),
    );
}

// Decorated classes go in the same list; a name both declare is a start-up error.
export class About {
  @Tool({ description: 'What this server converts' })
  units(): string {
    return tools.map((tool) => tool.name).join(', ');
  }
}

export function createConverterApp(folder = process.env.NOTES_DIR ?? '.') {
  return createApp({ name: 'converter', version: '1.0.0', providers: [...tools, ...notesIn(folder), About] });
}
