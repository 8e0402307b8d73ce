import { isObject } from '../../protocol/json-rpc';
import type { ServerCapabilities } from '../../protocol/mcp-types';

/** The part of a `subscriptions/listen` filter this server can honour: what its capabilities declare. */
export function honouredFilter(filter: unknown, capabilities: ServerCapabilities): Record<string, unknown> {
  const asked = isObject(filter) ? filter : {};
  const honoured: Record<string, unknown> = {};
  if (asked.toolsListChanged === true && capabilities.tools?.listChanged) honoured.toolsListChanged = true;
  if (asked.promptsListChanged === true && capabilities.prompts?.listChanged) honoured.promptsListChanged = true;
  if (asked.resourcesListChanged === true && capabilities.resources?.listChanged) honoured.resourcesListChanged = true;
  if (Array.isArray(asked.resourceSubscriptions) && capabilities.resources?.subscribe) {
    honoured.resourceSubscriptions = asked.resourceSubscriptions.filter((uri): uri is string => typeof uri === 'string');
  }
  // The tasks extension: notifications/tasks for the tasks named (their id is what lets a client see them).
  if (Array.isArray(asked.taskIds) && capabilities.tasks) honoured.taskIds = asked.taskIds.filter((id): id is string => typeof id === 'string');
  return honoured;
}
