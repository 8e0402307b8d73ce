// Strings rather than symbols: they survive two installed copies of the package and read well
// in a debugger.
export const TOOL_METADATA = 'mcpkit:tool';
export const RESOURCE_METADATA = 'mcpkit:resource';
export const RESOURCE_TEMPLATE_METADATA = 'mcpkit:resource-template';
export const APP_VIEW_METADATA = 'mcpkit:app-view';
export const PROMPT_METADATA = 'mcpkit:prompt';
export const FIELD_METADATA = 'mcpkit:field';
export const FIELD_LIST_METADATA = 'mcpkit:field-list';
export const COMPLETE_METADATA = 'mcpkit:complete';
export const DEFINITION_METADATA = 'mcpkit:definition';
export const GUARDS_METADATA = 'mcpkit:guards';
export const INTERCEPTORS_METADATA = 'mcpkit:interceptors';
export const FILTERS_METADATA = 'mcpkit:filters';
export const PUBLIC_METADATA = 'mcpkit:public';
export const SCOPES_METADATA = 'mcpkit:scopes';
export const ROLES_METADATA = 'mcpkit:roles';
export const RATE_LIMIT_METADATA = 'mcpkit:rate-limit';
