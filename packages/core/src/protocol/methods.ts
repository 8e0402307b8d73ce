/** Every JSON-RPC method name the framework handles or sends. */
export const METHOD = {
  INITIALIZE: 'initialize',
  INITIALIZED: 'notifications/initialized',
  PING: 'ping',
  CANCELLED: 'notifications/cancelled',
  PROGRESS: 'notifications/progress',
  TOOLS_LIST: 'tools/list',
  TOOLS_CALL: 'tools/call',
  RESOURCES_LIST: 'resources/list',
  RESOURCES_TEMPLATES_LIST: 'resources/templates/list',
  RESOURCES_READ: 'resources/read',
  PROMPTS_LIST: 'prompts/list',
  PROMPTS_GET: 'prompts/get',
} as const;
