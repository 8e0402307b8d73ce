import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Field, Tool, type RequestContext } from '@mcpkit/core';
import { IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { pruneExports, type ExportRetention } from './export-retention';
import type { NoteStore } from './note-store';

/** Archives kept by default: 100, none older than a day (the longest TTL of a task that names one). */
export const DEFAULT_RETENTION: ExportRetention = { maxExports: 100, maxAgeMs: 86_400_000 };

export class ExportNotesInput {
  @Field({ description: 'Only notes with this tag (default: all)' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  tag?: string;

  @Field({ description: 'Pause after each note, in ms, to spare a busy disk (default 0)' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5000)
  throttleMs?: number;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/**
 * The notes' one long-running tool: a Markdown archive, written note by note, as a task when the
 * client can. Each export prunes the folder (`retention`), so archives do not pile up on disk.
 */
export class NotesExport {
  constructor(
    private readonly store: NoteStore,
    private readonly exportDir: string,
    private readonly retention: ExportRetention = DEFAULT_RETENTION,
  ) {}

  @Tool({
    name: 'export_notes',
    title: 'Export notes',
    description: 'Writes every note (or those with a tag) into one Markdown archive in the export folder and returns its path',
    task: 'optional',
  })
  async export(input: ExportNotesInput, ctx: RequestContext): Promise<string> {
    const notes = this.store.all().filter((note) => input.tag === undefined || note.tags.includes(input.tag));
    const parts = [`# Notes export${input.tag ? ` (tag ${input.tag})` : ''}\n`];
    for (const [index, note] of notes.entries()) {
      parts.push(`## ${note.title}\n\n${note.body}\n\ntags: ${note.tags.join(', ') || '-'} · updated ${note.updatedAt}\n`);
      ctx.progress(index + 1, notes.length, `exported ${note.title}`);
      await ctx.task?.update(`${index + 1} of ${notes.length} notes`);
      await pause(input.throttleMs ?? 0, ctx.signal);
    }
    mkdirSync(this.exportDir, { recursive: true });
    // A fixed name per call: a cancelled or failed export leaves no half-written archive behind.
    const path = join(this.exportDir, `notes-${new Date().toISOString().replace(/[:.]/g, '-')}.md`);
    writeFileSync(path, parts.join('\n'));
    pruneExports(this.exportDir, this.retention);
    return `Exported ${notes.length} note${notes.length === 1 ? '' : 's'} to ${path}`;
  }
}
