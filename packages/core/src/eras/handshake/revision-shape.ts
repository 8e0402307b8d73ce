import { isAtLeast } from '../../protocol/protocol-versions';

// The first revision whose schema has each optional field. A client that validates strictly
// never meets a field its revision lacks (architecture.md §1).
type FieldTable = Readonly<Record<string, string>>;

export const TOOL_FIELDS: FieldTable = {
  annotations: '2025-03-26',
  title: '2025-06-18',
  outputSchema: '2025-06-18',
  _meta: '2025-06-18',
  icons: '2025-11-25',
  execution: '2025-11-25',
};
export const RESOURCE_FIELDS: FieldTable = { annotations: '2025-03-26', title: '2025-06-18', _meta: '2025-06-18', icons: '2025-11-25' };
export const PROMPT_FIELDS: FieldTable = { title: '2025-06-18', _meta: '2025-06-18', icons: '2025-11-25' };
export const PROMPT_ARGUMENT_FIELDS: FieldTable = { title: '2025-06-18' };
export const IMPLEMENTATION_FIELDS: FieldTable = { title: '2025-06-18', description: '2025-11-25', websiteUrl: '2025-11-25', icons: '2025-11-25' };
export const CALL_TOOL_RESULT_FIELDS: FieldTable = { structuredContent: '2025-06-18' };

/** A copy of `value` without the fields `version` does not define (the object itself when none). */
export function shapeForRevision<T extends object>(value: T, fields: FieldTable, version: string): T {
  let copy: Record<string, unknown> | undefined;
  for (const key in fields) {
    if (key in value && !isAtLeast(version, fields[key])) {
      copy ??= { ...(value as Record<string, unknown>) };
      delete copy[key];
    }
  }
  return (copy ?? value) as T;
}

/** Whether `version`'s schema has `key` among `fields` (a field the table does not list is in every revision). */
export function hasField(version: string, fields: FieldTable, key: string): boolean {
  return !(key in fields) || isAtLeast(version, fields[key]);
}
