import type { HeaderParam, McpTool } from '@mcpkit/core';
import { headerParamsOf, isObject } from '@mcpkit/core/transport';
import { headerValue } from './modern-headers';

/**
 * The `x-mcp-header` arguments of the tools a 2026-07-28 server listed, by tool name, read with
 * the server's own reader (`headerParamsOf`): a `tools/call` over HTTP mirrors them into
 * `Mcp-Param-{Name}` headers. A tool whose annotation is invalid is dropped from the list, as
 * the spec asks of clients.
 */
export class ParamHeaders {
  private readonly byTool = new Map<string, readonly HeaderParam[]>();

  /** Learns the tools of one `tools/list` page; returns the page without the tools it must drop. */
  learn(tools: unknown): unknown {
    if (!Array.isArray(tools)) return tools;
    return tools.filter((tool: McpTool) => {
      if (!isObject(tool) || typeof tool.name !== 'string' || !isObject(tool.inputSchema)) return true;
      try {
        const params = headerParamsOf(tool.inputSchema, `tool ${tool.name}`);
        if (params.length > 0) this.byTool.set(tool.name, params);
        else this.byTool.delete(tool.name);
        return true;
      } catch {
        this.byTool.delete(tool.name);
        return false;
      }
    });
  }

  /** The `Mcp-Param-*` headers of a call of `tool` with `args` (none for a value absent or null). */
  headersOf(tool: unknown, args: unknown): Record<string, string> {
    const params = typeof tool === 'string' ? this.byTool.get(tool) : undefined;
    const headers: Record<string, string> = {};
    for (const param of params ?? []) {
      let value: unknown = args;
      for (const key of param.path) value = isObject(value) ? value[key] : undefined;
      if (value === undefined || value === null) continue;
      headers[`mcp-param-${param.header.toLowerCase()}`] = typeof value === 'string' ? headerValue(value) : String(value);
    }
    return headers;
  }
}
