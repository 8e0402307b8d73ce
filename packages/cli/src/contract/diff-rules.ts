/** How much a change can hurt the clients of the old version. */
export type Severity = 'breaking' | 'risky' | 'safe';

/** The rules of `mcpkit diff`: each change is reported with the one that decided it (docs/contract.md). */
export const DIFF_RULES = {
  // breaking: a client of the old version can be refused, or get what it cannot read
  'tool-removed': { severity: 'breaking', summary: 'a tool was removed' },
  'tool-renamed': { severity: 'breaking', summary: 'a tool was renamed (same content, new name)' },
  'resource-removed': { severity: 'breaking', summary: 'a resource was removed' },
  'resource-renamed': { severity: 'breaking', summary: 'a resource moved to another URI (same name)' },
  'template-removed': { severity: 'breaking', summary: 'a resource template was removed' },
  'template-renamed': { severity: 'breaking', summary: 'a resource template changed its URI template (same name)' },
  'prompt-removed': { severity: 'breaking', summary: 'a prompt was removed' },
  'prompt-renamed': { severity: 'breaking', summary: 'a prompt was renamed (same content, new name)' },
  'input-required-added': { severity: 'breaking', summary: 'a new required input, or an optional input made required' },
  'input-type-narrowed': { severity: 'breaking', summary: "an input's type accepts less (a type or null dropped, a branch of anyOf/oneOf gone)" },
  'input-enum-value-removed': { severity: 'breaking', summary: 'an enum value (or the const) of an input was removed' },
  'input-constraint-tightened': {
    severity: 'breaking',
    summary: 'a constraint tightened: min/max, length, pattern or format added, additionalProperties closed, array bounds, an enum where there was none',
  },
  'input-default-removed': { severity: 'breaking', summary: 'the default of an optional input was removed: leaving it out now means something else' },
  'input-removed': { severity: 'breaking', summary: 'an input was removed and the schema now refuses it' },
  'output-field-removed': { severity: 'breaking', summary: 'an output field was removed, or may now be absent' },
  'output-type-changed': { severity: 'breaking', summary: "an output field's type changed: it may hold values the old schema did not allow" },
  'task-support-required': { severity: 'breaking', summary: 'a tool must now be called as a task' },
  'task-support-dropped': { severity: 'breaking', summary: 'a tool no longer runs as a task' },
  'prompt-argument-required': { severity: 'breaking', summary: 'a prompt argument became required (or a new required one)' },
  'capability-removed': { severity: 'breaking', summary: 'a capability (or a flag of one) is no longer announced' },
  // risky: nothing is refused, but a model or a client may now act otherwise
  'annotation-read-only-dropped': { severity: 'risky', summary: 'readOnlyHint true → false' },
  'annotation-destructive-added': { severity: 'risky', summary: 'destructiveHint false → true (absent means true)' },
  'annotation-open-world-added': { severity: 'risky', summary: 'openWorldHint false → true (absent means true)' },
  'tool-description-changed': { severity: 'risky', summary: "a tool's description changed: models that use it read the new text" },
  'input-no-longer-read': { severity: 'risky', summary: 'an input was removed; the schema still lets clients send it, and it is ignored' },
  'input-default-changed': { severity: 'risky', summary: "an optional input's default changed" },
  'output-constraint-loosened': { severity: 'risky', summary: 'an output constraint was dropped or loosened: values a strict old client refuses may come' },
  'schema-keyword-changed': { severity: 'risky', summary: 'a schema keyword mcpkit diff does not compare changed' },
  'prompt-argument-removed': { severity: 'risky', summary: 'a prompt argument was removed' },
  'instructions-changed': { severity: 'risky', summary: "the server's instructions changed" },
  'completion-removed': { severity: 'risky', summary: 'an argument no longer completes' },
  // safe
  'tool-added': { severity: 'safe', summary: 'a tool was added' },
  'resource-added': { severity: 'safe', summary: 'a resource was added' },
  'template-added': { severity: 'safe', summary: 'a resource template was added' },
  'prompt-added': { severity: 'safe', summary: 'a prompt was added' },
  'input-optional-added': { severity: 'safe', summary: 'a new optional input' },
  'input-type-widened': { severity: 'safe', summary: "an input's type accepts more" },
  'input-enum-value-added': { severity: 'safe', summary: 'an enum value was added' },
  'input-constraint-loosened': { severity: 'safe', summary: 'a constraint loosened or dropped, or an input no longer required' },
  'input-default-added': { severity: 'safe', summary: 'an optional input got a default' },
  'output-field-added': { severity: 'safe', summary: 'an output field (or an output schema) was added' },
  'output-type-narrowed': { severity: 'safe', summary: "an output field's type allows less" },
  'prompt-argument-added': { severity: 'safe', summary: 'an optional prompt argument was added' },
  'field-description-changed': { severity: 'safe', summary: 'the description of a field changed' },
  'completion-added': { severity: 'safe', summary: 'an argument now completes' },
  'capability-added': { severity: 'safe', summary: 'a capability (or a flag of one) was added' },
  'metadata-changed': {
    severity: 'safe',
    summary: 'display and metadata only: titles, icons, _meta, server info, annotations toward safety, descriptions of resources and prompts',
  },
} as const satisfies Record<string, { severity: Severity; summary: string }>;

/** A rule of `mcpkit diff`. */
export type DiffRuleId = keyof typeof DIFF_RULES;

/** Most harmful first. */
export const SEVERITIES: readonly Severity[] = ['breaking', 'risky', 'safe'];
