import { describeApp } from '../describe-app';
import { loadApp, resolveEntry } from '../load-app';
import { out, pc } from '../output';

/** `mcpkit inspect [entry]`: the capability map, as text or JSON. */
export function inspect(entry: string | undefined, options: { json?: boolean; export?: string }): void {
  const described = describeApp(loadApp(resolveEntry(entry), { export: options.export }));
  if (options.json) {
    out(JSON.stringify(described, null, 2));
    return;
  }
  const server = described.server as { name: string; version: string };
  out(`${pc.bold(server.name)} ${server.version}`);
  const section = (title: string, items: Array<Record<string, unknown>>, key: string, detail: (item: Record<string, unknown>) => string) => {
    out(`\n${pc.bold(title)} (${items.length})`);
    for (const item of items) out(`  ${pc.cyan(String(item[key]))}${item.description ? `  ${pc.dim(String(item.description))}` : ''}${detail(item)}`);
  };
  section('tools', described.tools as Array<Record<string, unknown>>, 'name', (tool) => {
    const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
    const fields = Object.keys(schema.properties ?? {}).map((name) => (schema.required?.includes(name) ? name : `${name}?`));
    return fields.length > 0 ? `\n      input: ${fields.join(', ')}` : '';
  });
  section('resources', described.resources as Array<Record<string, unknown>>, 'uri', () => '');
  section('resource templates', described.resourceTemplates as Array<Record<string, unknown>>, 'uriTemplate', () => '');
  section('prompts', described.prompts as Array<Record<string, unknown>>, 'name', (prompt) => {
    const args = (prompt.arguments as Array<{ name: string; required?: boolean }> | undefined) ?? [];
    return args.length > 0 ? `\n      arguments: ${args.map((arg) => (arg.required ? arg.name : `${arg.name}?`)).join(', ')}` : '';
  });
}
