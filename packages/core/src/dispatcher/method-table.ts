import type { McpApp } from '../app/app';
import { InvalidParamsError } from '../errors/mcp-error';
import { isLogLevel } from '../logging/log-levels';
import type { Connection } from './connection';
import { complete } from './handle-completion';
import { requireString } from './read-params';
import { METHOD } from '../protocol/methods';
import type { RequestContext } from './request-context';
import { callTool } from './handle-tools';
import { readResource } from './handle-resources';
import { getPrompt } from './handle-prompts';

/** A method's handler: params in, result object out (or a thrown wire error). */
export type MethodHandler = (params: Record<string, unknown>, ctx: RequestContext, connection: Connection) => unknown;
export type MethodTable = ReadonlyMap<string, MethodHandler>;

function singlePage(params: Record<string, unknown>): void {
  // Everything fits on one page, so no cursor we could have issued exists.
  if (params.cursor !== undefined) throw new InvalidParamsError('Invalid cursor', { cursor: params.cursor });
}

/**
 * The methods an app answers after the handshake, built once. Capabilities the app does not
 * declare have no entry, so their methods are "not found".
 */
export function buildMethodTable(app: McpApp): MethodTable {
  const table = new Map<string, MethodHandler>();
  const { map } = app;
  table.set(METHOD.PING, () => ({}));
  if (app.capabilities.tools) {
    table.set(METHOD.TOOLS_LIST, (params, ctx) => (singlePage(params), app.view(ctx.client.protocolVersion).tools));
    table.set(METHOD.TOOLS_CALL, (params, ctx) => callTool(map.tools, params, ctx));
  }
  if (app.capabilities.resources) {
    table.set(METHOD.RESOURCES_LIST, (params, ctx) => (singlePage(params), app.view(ctx.client.protocolVersion).resources));
    table.set(METHOD.RESOURCES_TEMPLATES_LIST, (params, ctx) => (singlePage(params), app.view(ctx.client.protocolVersion).resourceTemplates));
    table.set(METHOD.RESOURCES_READ, (params, ctx) => readResource(map, params, ctx));
  }
  if (app.capabilities.prompts) {
    table.set(METHOD.PROMPTS_LIST, (params, ctx) => (singlePage(params), app.view(ctx.client.protocolVersion).prompts));
    table.set(METHOD.PROMPTS_GET, (params, ctx) => getPrompt(map.prompts, params, ctx));
  }
  if (app.capabilities.resources?.subscribe) {
    table.set(METHOD.RESOURCES_SUBSCRIBE, (params, _ctx, connection) => (connection.subscribe(requireString(params, 'uri', METHOD.RESOURCES_SUBSCRIBE), true), {}));
    table.set(METHOD.RESOURCES_UNSUBSCRIBE, (params, _ctx, connection) => (connection.subscribe(requireString(params, 'uri', METHOD.RESOURCES_UNSUBSCRIBE), false), {}));
  }
  if (app.capabilities.logging) {
    table.set(METHOD.LOGGING_SET_LEVEL, (params, _ctx, connection) => {
      if (!isLogLevel(params.level)) throw new InvalidParamsError(`Invalid log level: ${JSON.stringify(params.level)}`, { levels: ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] });
      connection.logLevel = params.level;
      return {};
    });
  }
  if (app.capabilities.completions) {
    const completions = app.settings.completions;
    table.set(METHOD.COMPLETION_COMPLETE, (params, ctx) => complete(completions, map.prompts, map.templates, params, ctx));
  }
  return table;
}
