import { METHOD } from '../../protocol/methods';

/**
 * The methods the legacy revisions have: a request for any other is `-32601` on this era, even
 * when the app's method table has a handler for it (a method of another era).
 */
export const LEGACY_METHODS: ReadonlySet<string> = new Set([
  METHOD.INITIALIZE,
  METHOD.PING,
  METHOD.TOOLS_LIST,
  METHOD.TOOLS_CALL,
  METHOD.RESOURCES_LIST,
  METHOD.RESOURCES_TEMPLATES_LIST,
  METHOD.RESOURCES_READ,
  METHOD.RESOURCES_SUBSCRIBE,
  METHOD.RESOURCES_UNSUBSCRIBE,
  METHOD.PROMPTS_LIST,
  METHOD.PROMPTS_GET,
  METHOD.LOGGING_SET_LEVEL,
  METHOD.COMPLETION_COMPLETE,
  METHOD.TASKS_GET,
  METHOD.TASKS_RESULT,
  METHOD.TASKS_LIST,
  METHOD.TASKS_CANCEL,
  // Answered on this era as it always was (the task dialect says what it may change).
  METHOD.TASKS_UPDATE,
]);
