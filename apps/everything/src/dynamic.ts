import { Prompt, Resource, Tool } from '@mcpkit/core';

/** What the conformance fixture adds two seconds after start: a tool, a resource and a prompt. */
export class DynamicCapabilities {
  @Tool({ name: 'test_dynamic_tool', description: 'A tool added at run time' })
  dynamicTool(): string {
    return 'This tool was added dynamically.';
  }

  @Resource({ uri: 'test://dynamic-resource', name: 'dynamic-resource', description: 'A resource added at run time', mimeType: 'text/plain' })
  dynamicResource(): string {
    return 'This resource was added dynamically.';
  }

  @Prompt({ name: 'test_dynamic_prompt', description: 'A prompt added at run time' })
  dynamicPrompt(): string {
    return 'This prompt was added dynamically.';
  }
}
