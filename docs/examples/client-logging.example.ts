import { createApp, Tool, type RequestContext } from '@mcpkit/core';
import { IsInt, Max, Min } from 'class-validator';

class ImportInput {
  @IsInt()
  @Min(1)
  @Max(1000)
  rows: number;
}

export class Importer {
  @Tool({ description: 'Imports rows, telling the client how it goes' })
  async import(input: ImportInput, ctx: RequestContext): Promise<string> {
    ctx.log.info(`importing ${input.rows} rows`, 'importer'); // the client sees this (at info or below)
    ctx.logger.debug({ rows: input.rows }, 'import started'); // the server's own log; the client never does
    for (let row = 1; row <= input.rows; row++) {
      if (row % 100 === 0) ctx.progress(row, input.rows); // only if the client asked for progress
    }
    if (input.rows > 500) ctx.log.warning({ rows: input.rows, hint: 'split large imports' }, 'importer');
    return `imported ${input.rows}`;
  }
}

// Nothing is sent until the client calls logging/setLevel, unless defaultLevel says otherwise.
export const importApp = createApp({ name: 'importer', version: '1.0.0', providers: [Importer], clientLogging: true });
