import type { AppModel } from './app-model';
import { clipJson } from '../errors/clip';
import { InvalidParamsError } from '../errors/mcp-error';
import { AuthenticationRequiredError } from '../errors/access-errors';
import { isLogLevel } from '../logging/log-levels';
import type { MethodHandler, MethodTable } from './method-handler';
import { complete } from './handle-completion';
import { requireUri } from '../model/read-params';
import { METHOD } from '../protocol/methods';
import { callTool } from './handle-tools';
import { callToolOrTask, taskMethods } from './handle-tasks';
import { readResource } from './handle-resources';
import { getPrompt } from './handle-prompts';
import { listFor } from './visible-list';
import { coreToolsShape, offersViews } from './view-tools';
import { foundTools, withFoundTools } from './found-tools';
import { subscriptionGrant } from './readable-resource';
import type { SubscriptionGrant } from '../model/subscription-grant';

const PER_CLIENT = Object.freeze({ scope: 'private' as const });

/**
 * The methods an app answers after the handshake, built once. Capabilities the app does not
 * declare have no entry, so their methods are "not found".
 */
export function buildMethodTable(app: AppModel): MethodTable {
  const table = new Map<string, MethodHandler>();
  table.set(METHOD.PING, () => ({}));
  if (app.capabilities.tools) {
    table.set(METHOD.TOOLS_LIST, (params, ctx) => {
      const view = app.view(ctx.client.protocolVersion);
      const core = offersViews(ctx.client) ? undefined : coreToolsShape(app.map.tools, app.settings.pageSize);
      // MCP Apps: the list depends on the client's extensions, so no other client may reuse it.
      if (view.viewTools) ctx.declaredCacheHint = PER_CLIENT;
      const listed = listFor(app, view.tools, 'tools', params.cursor, ctx, app.pipelines?.tools, view.viewTools ? core : undefined);
      // Progressive disclosure: what this session's searches found joins its list.
      const found = foundTools(ctx.session);
      return found === undefined ? listed : withFoundTools(app, view, listed, found, ctx, core?.entries);
    });
    // Decided once: an app without task tools calls its tools as before, nothing asked per call.
    const tasks = app.settings.tasks;
    table.set(
      METHOD.TOOLS_CALL,
      tasks
        ? callToolOrTask(
            tasks,
            () => app.map.tools,
            app.settings.toolTimeoutMs,
            () => app.pipelines?.tools.byName,
          )
        : (params, ctx) => callTool(app.map.tools, params, ctx, app.settings.toolTimeoutMs, app.pipelines?.tools.byName),
    );
    if (tasks) for (const [method, handler] of taskMethods(tasks, app)) table.set(method, handler);
  }
  if (app.capabilities.resources) {
    table.set(METHOD.RESOURCES_LIST, (params, ctx) =>
      listFor(app, app.view(ctx.client.protocolVersion).resources, 'resources', params.cursor, ctx, app.pipelines?.resources),
    );
    table.set(METHOD.RESOURCES_TEMPLATES_LIST, (params, ctx) =>
      listFor(app, app.view(ctx.client.protocolVersion).resourceTemplates, 'resourceTemplates', params.cursor, ctx, app.pipelines?.templates),
    );
    table.set(METHOD.RESOURCES_READ, (params, ctx) => readResource(app.map, params, ctx, app.settings.maxUriLength, app.pipelines));
  }
  if (app.capabilities.prompts) {
    table.set(METHOD.PROMPTS_LIST, (params, ctx) =>
      listFor(app, app.view(ctx.client.protocolVersion).prompts, 'prompts', params.cursor, ctx, app.pipelines?.prompts),
    );
    table.set(METHOD.PROMPTS_GET, (params, ctx) => getPrompt(app.map.prompts, params, ctx, app.pipelines?.prompts.byName));
  }
  if (app.capabilities.resources?.subscribe) {
    table.set(METHOD.RESOURCES_SUBSCRIBE, (params, ctx, connection) => {
      const uri = requireUri(params, 'uri', METHOD.RESOURCES_SUBSCRIBE, app.settings.maxUriLength);
      // Hidden: the empty answer an unknown URI gets, and nothing is ever heard of it.
      const subscribe = (grant: SubscriptionGrant | undefined) => (grant === undefined ? {} : settled(connection.subscribe(uri, grant)));
      // Hearing of a resource is reading it: its read rule first (a denial answers as a read's does).
      const grant = subscriptionGrant(app.map, app.pipelines, uri, ctx);
      return grant instanceof Promise ? grant.then(subscribe) : subscribe(grant);
    });
    table.set(METHOD.RESOURCES_UNSUBSCRIBE, (params, _ctx, connection) =>
      settled(connection.subscribe(requireUri(params, 'uri', METHOD.RESOURCES_UNSUBSCRIBE, app.settings.maxUriLength), undefined)),
    );
  }
  if (app.capabilities.logging) {
    table.set(METHOD.LOGGING_SET_LEVEL, (params, _ctx, connection) => {
      if (!isLogLevel(params.level))
        throw new InvalidParamsError(`Invalid log level: ${clipJson(params.level)}`, {
          levels: ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'],
        });
      return settled(connection.setLogLevel(params.level));
    });
  }
  if (app.capabilities.completions) {
    table.set(METHOD.COMPLETION_COMPLETE, (params, ctx) =>
      complete(app.completions, app.map.prompts, app.map.templates, params, ctx, app.settings.maxUriLength, app.pipelines),
    );
  }
  // requireAuth holds for an extension's methods as for every primitive: a caller first.
  const requireAuth = app.settings.pipeline.requireAuth;
  for (const [method, handler] of app.settings.extensions.methods)
    table.set(method, requireAuth ? (params, ctx, session) => (ctx.auth === undefined ? denied() : handler(params, ctx, session)) : handler);
  return table;
}

function denied(): never {
  throw new AuthenticationRequiredError();
}

/** An empty result, once a shared store has what the method changed (at once when nothing is shared). */
function settled(stored: void | Promise<void>): object | Promise<object> {
  return stored instanceof Promise ? stored.then(() => ({})) : {};
}

export type { MethodHandler, MethodTable };
