import { METHOD } from '../../protocol/methods';
import { SERVER_DISCOVER, SUBSCRIPTIONS_LISTEN } from './meta';

/**
 * The methods the modern revision has: a request for any other is `-32601` on this era, even
 * when the app's method table has a handler for it (a method of another era). The methods it
 * removed are answered as such before (`readModernRequest`).
 */
export const MODERN_METHODS: ReadonlySet<string> = new Set([
  SERVER_DISCOVER,
  SUBSCRIPTIONS_LISTEN,
  METHOD.TOOLS_LIST,
  METHOD.TOOLS_CALL,
  METHOD.RESOURCES_LIST,
  METHOD.RESOURCES_TEMPLATES_LIST,
  METHOD.RESOURCES_READ,
  METHOD.PROMPTS_LIST,
  METHOD.PROMPTS_GET,
  METHOD.COMPLETION_COMPLETE,
  METHOD.TASKS_GET,
  METHOD.TASKS_CANCEL,
  METHOD.TASKS_UPDATE,
]);
