import { createApp, ErrorCode, Field, Prompt, PromptError } from '@mcpkit/core';
import { IsString } from 'class-validator';

class SummaryArgs {
  @Field({ description: 'The document to summarise' })
  @IsString()
  id: string;
}

const documents = new Map([
  ['7', 'Quarterly numbers: up 3%.'],
  ['8', 'Draft plan.'],
]);
const beingEdited = new Set(['8']);

export class SummaryPrompts {
  @Prompt({ description: 'Asks for a summary of one document' })
  summarize(args: SummaryArgs): string {
    const text = documents.get(args.id);
    // The client gets exactly this message, with this code and data.
    if (text === undefined) throw new PromptError(`No document ${args.id}`, { code: ErrorCode.InvalidParams, data: { id: args.id } });
    // Without a code: -32603 with this message.
    if (beingEdited.has(args.id)) throw new PromptError(`Document ${args.id} is being edited; try again in a minute`);
    return `Summarise this document:\n\n${text}`;
  }

  @Prompt({ description: 'Fails by accident' })
  broken(): string {
    // Any other error: the client gets -32603 "Internal error"; the error and its stack go to the server log.
    throw new Error('template file missing at /srv/templates/broken.txt');
  }
}

export const summaryApp = createApp({ name: 'summaries', version: '1.0.0', providers: [SummaryPrompts] });
