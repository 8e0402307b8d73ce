import { Field } from '@mcpkit/core';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

export class CreateNoteInput {
  @Field({ description: 'Short title of the note' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  title: string;

  @Field({ description: 'The note text (Markdown is fine)' })
  @IsString()
  @MaxLength(100_000)
  body: string;

  @Field({ description: 'Labels to find the note by' })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @ArrayMaxSize(20)
  tags?: string[];
}

export class NoteOutput {
  @IsInt()
  id: number;

  @IsString()
  title: string;

  @IsString()
  body: string;

  @IsArray()
  @IsString({ each: true })
  tags: string[];

  @Field({ description: 'ISO 8601 creation time' })
  @IsString()
  createdAt: string;

  @Field({ description: 'ISO 8601 time of the last change' })
  @IsString()
  updatedAt: string;
}

export class SearchNotesInput {
  @Field({ description: 'Text to look for in titles, bodies and tags' })
  @IsString()
  @MinLength(1)
  query: string;

  @Field({ description: 'Most notes to return', default: 10 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 10;
}

export class UpdateNoteInput {
  @Field({ description: 'Id of the note to change' })
  @IsInt()
  @Min(1)
  id: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  title?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100_000)
  body?: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @ArrayMaxSize(20)
  tags?: string[];
}

export class DeleteNoteInput {
  @Field({ description: 'Id of the note to delete' })
  @IsInt()
  @Min(1)
  id: number;
}

export class SummarizeArgs {
  @Field({ description: 'Only notes mentioning this text (default: all notes)' })
  @IsOptional()
  @IsString()
  topic?: string;
}

export class DraftNoteInput {
  @Field({ description: 'What the note is about, shown to the user when asking' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  topic?: string;
}

/** The first form `draft_note` shows: flat string fields, as form elicitation requires. */
export class DraftNoteForm {
  @Field({ description: 'Title' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  title: string;

  @Field({ description: 'Text of the note' })
  @IsString()
  @MaxLength(100_000)
  body: string;

  @Field({ description: 'Tags, separated by commas' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  tags?: string;
}

/** The second form: the draft is shown back and the user decides. */
export class SaveDraftForm {
  @Field({ description: 'Save this note?' })
  @IsBoolean()
  save: boolean;
}
