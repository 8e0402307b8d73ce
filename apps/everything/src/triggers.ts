import { Prompt, Tool, type McpApp } from '@mcpkit/core';

/** The running app, for the tools that change it (set by createEverythingApp). */
export const running: { app: McpApp | undefined } = { app: undefined };

function toggle(kind: 'tool' | 'prompt', name: string): string {
  const app = running.app;
  if (!app) return 'no app';
  // Each call changes the list once: clients listening for that list hear about it.
  if (!app.disable(kind, name)) app.enable(kind, name);
  return `${kind} list changed`;
}

/** Tools that change the lists on demand, for the subscriptions/listen scenarios. */
export class ListTriggers {
  @Tool({ name: 'test_trigger_tool_change', description: 'Changes the tool list (tools/list_changed)' })
  toolChange(): string {
    return toggle('tool', 'test_toggle_tool');
  }

  @Tool({ name: 'test_trigger_prompt_change', description: 'Changes the prompt list (prompts/list_changed)' })
  promptChange(): string {
    return toggle('prompt', 'test_toggle_prompt');
  }

  @Tool({ name: 'test_toggle_tool', description: 'Comes and goes with test_trigger_tool_change' })
  toggleTool(): string {
    return 'here';
  }

  @Prompt({ name: 'test_toggle_prompt', description: 'Comes and goes with test_trigger_prompt_change' })
  togglePrompt(): string {
    return 'here';
  }
}
