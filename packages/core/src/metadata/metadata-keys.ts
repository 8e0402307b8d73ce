// Strings rather than symbols: they survive two installed copies of the package and read well
// in a debugger.
export const TOOL_METADATA = 'mcpkit:tool';
export const RESOURCE_METADATA = 'mcpkit:resource';
export const RESOURCE_TEMPLATE_METADATA = 'mcpkit:resource-template';
export const PROMPT_METADATA = 'mcpkit:prompt';
export const FIELD_METADATA = 'mcpkit:field';
export const FIELD_LIST_METADATA = 'mcpkit:field-list';
export const COMPLETE_METADATA = 'mcpkit:complete';
export const DEFINITION_METADATA = 'mcpkit:definition';
