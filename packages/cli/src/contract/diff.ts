import type { McpPrompt, McpResource, McpResourceTemplate, McpTool, ToolAnnotations } from '@mcpkit/core';
import { canonicalJson } from './canonical-json';
import { DIFF_RULES, SEVERITIES, type DiffRuleId, type Severity } from './diff-rules';
import { MANIFEST_ERAS, type Manifest, type ManifestCompletion, type ManifestEra, type ManifestEraName } from './manifest';
import { SchemaChecker } from './schema-check';
import { compareInputSchemas, compareOutputSchemas, type SchemaChange } from './schema-diff';
import { sameJson } from './schema-view';

/** What a change is about. */
export type DiffItemKind = 'server' | 'tool' | 'resource' | 'template' | 'prompt' | 'completion';

/** One change between two manifests. */
export interface DiffChange {
  rule: DiffRuleId;
  severity: Severity;
  kind: DiffItemKind;
  /** The item: a tool or prompt name, a resource URI, a URI template, `prompt:<name>` / `resource:<template>` for a completion; '' for the server. */
  name: string;
  /** Where in the item, e.g. `input /limit`, `output /id`, `annotations.readOnlyHint`, `argument topic`. */
  where?: string;
  message: string;
  /** See `SchemaChange.witness`: the arguments (input) or structured content (output) that show a breaking change. */
  witness?: unknown;
  /** The eras whose surface has this change. */
  eras: ManifestEraName[];
}

/** Everything `mcpkit diff` found, most harmful first. */
export interface DiffReport {
  from: { name: string; version: string; digest: string };
  to: { name: string; version: string; digest: string };
  changes: DiffChange[];
  counts: Record<Severity, number>;
}

type Draft = Omit<DiffChange, 'severity' | 'eras'>;

const KIND_ORDER: readonly DiffItemKind[] = ['server', 'tool', 'resource', 'template', 'prompt', 'completion'];

/** Code-point order: the same on every machine (localeCompare is not). */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function json(value: unknown): string {
  return value === undefined ? 'none' : canonicalJson(value);
}

/** Each item by its key. */
function index<T>(items: readonly T[], key: (item: T) => string): Map<string, T> {
  return new Map(items.map((item) => [key(item), item]));
}

/** Items of `before` missing from `after` and the reverse, paired as renames where `same` says two are one item under another key. */
function match<T>(
  before: Map<string, T>,
  after: Map<string, T>,
  same: (a: T, b: T) => boolean,
): { removed: string[]; added: string[]; renamed: Array<[string, string]>; kept: string[] } {
  const removed = [...before.keys()].filter((key) => !after.has(key));
  const added = [...after.keys()].filter((key) => !before.has(key));
  const renamed: Array<[string, string]> = [];
  for (const old of [...removed]) {
    const partner = added.find((key) => same(before.get(old)!, after.get(key)!));
    if (partner === undefined) continue;
    renamed.push([old, partner]);
    removed.splice(removed.indexOf(old), 1);
    added.splice(added.indexOf(partner), 1);
  }
  return { removed, added, renamed, kept: [...before.keys()].filter((key) => after.has(key)) };
}

/** The annotations as a client must read them: absent hints have the spec's defaults. */
function hints(annotations: ToolAnnotations | undefined): { readOnly: boolean; destructive: boolean; openWorld: boolean } {
  const readOnly = annotations?.readOnlyHint === true;
  // destructiveHint means something only for a tool that writes.
  return { readOnly, destructive: !readOnly && annotations?.destructiveHint !== false, openWorld: annotations?.openWorldHint !== false };
}

function taskSupportOf(tool: McpTool): string {
  return tool.execution?.taskSupport ?? 'forbidden';
}

/** Fields compared as display and metadata only. */
function metadata<T extends object>(kind: DiffItemKind, name: string, before: T, after: T, fields: ReadonlyArray<keyof T>, out: Draft[]): void {
  for (const field of fields) {
    if (!sameJson(before[field], after[field]))
      out.push({ rule: 'metadata-changed', kind, name, where: String(field), message: `${String(field)} ${json(before[field])} → ${json(after[field])}` });
  }
}

function fromSchema(kind: DiffItemKind, name: string, side: 'input' | 'output', change: SchemaChange): Draft {
  const draft: Draft = { rule: change.rule, kind, name, where: `${side} ${change.path || '/'}`, message: change.message };
  if ('witness' in change) draft.witness = change.witness;
  return draft;
}

function compareTool(before: McpTool, after: McpTool, checker: SchemaChecker, out: Draft[]): void {
  const name = after.name;
  if (!sameJson(before.description, after.description))
    out.push({
      rule: 'tool-description-changed',
      kind: 'tool',
      name,
      where: 'description',
      message: `${json(before.description)} → ${json(after.description)}`,
    });
  metadata('tool', name, before, after, ['title', 'icons', '_meta'], out);
  compareAnnotations(name, before.annotations, after.annotations, out);
  compareTaskSupport(name, before, after, out);
  compareToolSchemas(name, before, after, checker, out);
}

/** A hint that lets the tool do more harm is its own rule; any other change of annotations is metadata. */
function compareAnnotations(name: string, before: ToolAnnotations | undefined, after: ToolAnnotations | undefined, out: Draft[]): void {
  const was = hints(before);
  const now = hints(after);
  const harm: Array<[boolean, DiffRuleId, string]> = [
    [was.readOnly && !now.readOnly, 'annotation-read-only-dropped', `readOnlyHint true → ${json(after?.readOnlyHint)}: may write now`],
    [
      !was.destructive && now.destructive,
      'annotation-destructive-added',
      `destructiveHint ${json(before?.destructiveHint)} → ${json(after?.destructiveHint)}: may destroy now`,
    ],
    [
      !was.openWorld && now.openWorld,
      'annotation-open-world-added',
      `openWorldHint ${json(before?.openWorldHint)} → ${json(after?.openWorldHint)}: reaches the outside world now`,
    ],
  ];
  for (const [moved, rule, message] of harm) if (moved) out.push({ rule, kind: 'tool', name, where: 'annotations', message });
  if (!harm.some(([moved]) => moved) && !sameJson(before, after))
    out.push({ rule: 'metadata-changed', kind: 'tool', name, where: 'annotations', message: `${json(before)} → ${json(after)}` });
}

function compareTaskSupport(name: string, before: McpTool, after: McpTool, out: Draft[]): void {
  const [oldTasks, newTasks] = [taskSupportOf(before), taskSupportOf(after)];
  if (oldTasks === newTasks) return;
  const rule: DiffRuleId = newTasks === 'required' ? 'task-support-required' : newTasks === 'forbidden' ? 'task-support-dropped' : 'capability-added';
  out.push({ rule, kind: 'tool', name, where: 'execution.taskSupport', message: `${oldTasks} → ${newTasks}` });
}

function compareToolSchemas(name: string, before: McpTool, after: McpTool, checker: SchemaChecker, out: Draft[]): void {
  for (const change of compareInputSchemas(before.inputSchema, after.inputSchema, checker)) out.push(fromSchema('tool', name, 'input', change));
  if (before.outputSchema && after.outputSchema) {
    for (const change of compareOutputSchemas(before.outputSchema, after.outputSchema, checker)) out.push(fromSchema('tool', name, 'output', change));
  } else if (before.outputSchema) {
    out.push({
      rule: 'output-field-removed',
      kind: 'tool',
      name,
      where: 'output',
      message: 'outputSchema removed: no structured content is promised any more',
    });
  } else if (after.outputSchema) {
    out.push({ rule: 'output-field-added', kind: 'tool', name, where: 'output', message: 'outputSchema added' });
  }
}

function comparePrompt(before: McpPrompt, after: McpPrompt, out: Draft[]): void {
  const name = after.name;
  metadata('prompt', name, before, after, ['title', 'description', 'icons', '_meta'], out);
  const oldArgs = index(before.arguments ?? [], (argument) => argument.name);
  const newArgs = index(after.arguments ?? [], (argument) => argument.name);
  for (const [argument, old] of oldArgs) {
    const now = newArgs.get(argument);
    const where = `argument ${argument}`;
    if (!now) {
      out.push({ rule: 'prompt-argument-removed', kind: 'prompt', name, where, message: `${argument} removed` });
      continue;
    }
    if (now.required === true && old.required !== true)
      out.push({ rule: 'prompt-argument-required', kind: 'prompt', name, where, message: `${argument} is required now` });
    if (old.required === true && now.required !== true)
      out.push({ rule: 'input-constraint-loosened', kind: 'prompt', name, where, message: `${argument} is optional now` });
    if (!sameJson(old.description, now.description))
      out.push({ rule: 'field-description-changed', kind: 'prompt', name, where, message: `description ${json(old.description)} → ${json(now.description)}` });
    if (!sameJson(old.title, now.title))
      out.push({ rule: 'metadata-changed', kind: 'prompt', name, where, message: `title ${json(old.title)} → ${json(now.title)}` });
  }
  for (const [argument, now] of newArgs) {
    if (oldArgs.has(argument)) continue;
    const required = now.required === true;
    out.push({
      rule: required ? 'prompt-argument-required' : 'prompt-argument-added',
      kind: 'prompt',
      name,
      where: `argument ${argument}`,
      message: `new ${required ? 'required' : 'optional'} argument ${argument}`,
    });
  }
}

/** Capabilities as flat paths (`resources.subscribe`, `extensions.io.modelcontextprotocol/tasks`) to what they hold. */
function flags(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    if (prefix !== '') out.set(prefix, true);
    for (const [key, inner] of Object.entries(value)) if (inner !== false && inner !== undefined) flags(inner, prefix ? `${prefix}.${key}` : key, out);
  } else if (prefix !== '') out.set(prefix, value);
  return out;
}

function compareEra(before: ManifestEra, after: ManifestEra, checker: SchemaChecker): Draft[] {
  const out: Draft[] = [];
  metadata('server', '', before.serverInfo, after.serverInfo, ['name', 'version', 'title', 'description', 'websiteUrl', 'icons'], out);
  compareCapabilities(before.capabilities, after.capabilities, out);
  compareTools(before.tools, after.tools, checker, out);
  compareResources(before.resources, after.resources, out);
  compareTemplates(before.resourceTemplates, after.resourceTemplates, out);
  comparePrompts(before.prompts, after.prompts, out);
  return out;
}

function compareCapabilities(before: ManifestEra['capabilities'], after: ManifestEra['capabilities'], out: Draft[]): void {
  const [oldFlags, newFlags] = [flags(before), flags(after)];
  for (const [flag, value] of oldFlags)
    if (!newFlags.has(flag)) out.push({ rule: 'capability-removed', kind: 'server', name: '', where: 'capabilities', message: `${flag} removed` });
    else if (!sameJson(value, newFlags.get(flag)))
      out.push({ rule: 'metadata-changed', kind: 'server', name: '', where: 'capabilities', message: `${flag} ${json(value)} → ${json(newFlags.get(flag))}` });
  for (const flag of newFlags.keys())
    if (!oldFlags.has(flag)) out.push({ rule: 'capability-added', kind: 'server', name: '', where: 'capabilities', message: `${flag} added` });
}

function compareTools(before: readonly McpTool[], after: readonly McpTool[], checker: SchemaChecker, out: Draft[]): void {
  const oldTools = index(before, (tool) => tool.name);
  const newTools = index(after, (tool) => tool.name);
  const tools = match(
    oldTools,
    newTools,
    (a, b) => sameJson(a.inputSchema, b.inputSchema) && sameJson(a.description, b.description) && sameJson(a.outputSchema, b.outputSchema),
  );
  for (const name of tools.removed) out.push({ rule: 'tool-removed', kind: 'tool', name, message: 'removed' });
  for (const [from, to] of tools.renamed) {
    out.push({ rule: 'tool-renamed', kind: 'tool', name: from, message: `renamed to ${to}` });
    compareTool({ ...oldTools.get(from)!, name: to }, newTools.get(to)!, checker, out);
  }
  for (const name of tools.added) out.push({ rule: 'tool-added', kind: 'tool', name, message: 'added' });
  for (const name of tools.kept) compareTool(oldTools.get(name)!, newTools.get(name)!, checker, out);
}

function compareResources(before: readonly McpResource[], after: readonly McpResource[], out: Draft[]): void {
  const [oldResources, newResources] = [index(before, (r) => r.uri), index(after, (r) => r.uri)];
  const resources = match(oldResources, newResources, (a, b) => a.name === b.name);
  const resourceFields: Array<keyof McpResource> = ['name', 'title', 'description', 'mimeType', 'size', 'annotations', 'icons', '_meta'];
  for (const uri of resources.removed) out.push({ rule: 'resource-removed', kind: 'resource', name: uri, message: 'removed' });
  for (const [from, to] of resources.renamed) out.push({ rule: 'resource-renamed', kind: 'resource', name: from, message: `moved to ${to}` });
  for (const uri of resources.added) out.push({ rule: 'resource-added', kind: 'resource', name: uri, message: 'added' });
  for (const uri of resources.kept) metadata('resource', uri, oldResources.get(uri)!, newResources.get(uri)!, resourceFields, out);
}

function compareTemplates(before: readonly McpResourceTemplate[], after: readonly McpResourceTemplate[], out: Draft[]): void {
  const [oldTemplates, newTemplates] = [index(before, (t) => t.uriTemplate), index(after, (t) => t.uriTemplate)];
  const templates = match(oldTemplates, newTemplates, (a, b) => a.name === b.name);
  const templateFields: Array<keyof McpResourceTemplate> = ['name', 'title', 'description', 'mimeType', 'annotations', 'icons', '_meta'];
  for (const uri of templates.removed) out.push({ rule: 'template-removed', kind: 'template', name: uri, message: 'removed' });
  for (const [from, to] of templates.renamed) out.push({ rule: 'template-renamed', kind: 'template', name: from, message: `now ${to}` });
  for (const uri of templates.added) out.push({ rule: 'template-added', kind: 'template', name: uri, message: 'added' });
  for (const uri of templates.kept) metadata('template', uri, oldTemplates.get(uri)!, newTemplates.get(uri)!, templateFields, out);
}

function comparePrompts(before: readonly McpPrompt[], after: readonly McpPrompt[], out: Draft[]): void {
  const [oldPrompts, newPrompts] = [index(before, (p) => p.name), index(after, (p) => p.name)];
  const prompts = match(oldPrompts, newPrompts, (a, b) => sameJson(a.arguments, b.arguments) && sameJson(a.description, b.description));
  for (const name of prompts.removed) out.push({ rule: 'prompt-removed', kind: 'prompt', name, message: 'removed' });
  for (const [from, to] of prompts.renamed) out.push({ rule: 'prompt-renamed', kind: 'prompt', name: from, message: `renamed to ${to}` });
  for (const name of prompts.added) out.push({ rule: 'prompt-added', kind: 'prompt', name, message: 'added' });
  for (const name of prompts.kept) comparePrompt(oldPrompts.get(name)!, newPrompts.get(name)!, out);
}

function completionName(completion: ManifestCompletion): string {
  return completion.ref.type === 'ref/prompt' ? `prompt:${completion.ref.name}` : `resource:${completion.ref.uri}`;
}

/** Completions of items that are still there (a removed prompt's completions go with it). */
function compareCompletions(before: Manifest, after: Manifest): Draft[] {
  const out: Draft[] = [];
  const key = (completion: ManifestCompletion) => `${completionName(completion)}\0${completion.argument}`;
  const [olds, news] = [new Set(before.completions.map(key)), new Set(after.completions.map(key))];
  const latest = after.eras[MANIFEST_ERAS[0]];
  const exists = (completion: ManifestCompletion) =>
    completion.ref.type === 'ref/prompt'
      ? latest.prompts.some((prompt) => prompt.name === (completion.ref as { name: string }).name)
      : latest.resourceTemplates.some((template) => template.uriTemplate === (completion.ref as { uri: string }).uri);
  for (const completion of before.completions)
    if (!news.has(key(completion)) && exists(completion))
      out.push({
        rule: 'completion-removed',
        kind: 'completion',
        name: completionName(completion),
        where: `argument ${completion.argument}`,
        message: `${completion.argument} no longer completes`,
      });
  for (const completion of after.completions)
    if (!olds.has(key(completion)))
      out.push({
        rule: 'completion-added',
        kind: 'completion',
        name: completionName(completion),
        where: `argument ${completion.argument}`,
        message: `${completion.argument} completes now`,
      });
  return out;
}

/**
 * Every change from one manifest to another, each classified by the rule that decided it
 * (`DIFF_RULES`, docs/contract.md), compared on each era; a change seen on both eras is listed
 * once with both. Breaking schema changes carry a witness where one was found.
 *
 * @example
 * const report = diffManifests(JSON.parse(readFileSync('old.json', 'utf8')), buildManifest(app));
 * if (report.counts.breaking > 0) process.exitCode = 1;
 */
export function diffManifests(before: Manifest, after: Manifest): DiffReport {
  const checker = new SchemaChecker();
  const merged = new Map<string, DiffChange>();
  const add = (draft: Draft, eras: readonly ManifestEraName[]) => {
    const key = canonicalJson(draft);
    const known = merged.get(key);
    if (!known) merged.set(key, { ...draft, severity: DIFF_RULES[draft.rule].severity, eras: [...eras] });
    else for (const era of eras) if (!known.eras.includes(era)) known.eras.push(era);
  };
  if (!sameJson(before.instructions, after.instructions))
    add(
      { rule: 'instructions-changed', kind: 'server', name: '', where: 'instructions', message: `${json(before.instructions)} → ${json(after.instructions)}` },
      MANIFEST_ERAS,
    );
  for (const era of MANIFEST_ERAS) for (const draft of compareEra(before.eras[era], after.eras[era], checker)) add(draft, [era]);
  for (const draft of compareCompletions(before, after)) add(draft, MANIFEST_ERAS);
  const changes = [...merged.values()].sort(
    (a, b) =>
      SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      byText(a.name, b.name) ||
      byText(a.where ?? '', b.where ?? '') ||
      byText(a.message, b.message),
  );
  const counts: Record<Severity, number> = { breaking: 0, risky: 0, safe: 0 };
  for (const change of changes) counts[change.severity]++;
  const side = (manifest: Manifest) => ({ name: manifest.server.name, version: manifest.server.version, digest: manifest.digest });
  return { from: side(before), to: side(after), changes, counts };
}
