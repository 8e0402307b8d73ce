import type { Icon, JsonSchema, Meta, PromptArgument, ToolAnnotations, ContentAnnotations } from '../protocol/mcp-types';
import type { Constructor } from '../metadata/constructor';
import type { CacheHint } from '../results/cache-hints';
import type { ToolVisibility } from '../protocol/ui-extension';

/** What every decorated capability can say about itself (2025-11-25 `BaseMetadata` and friends). */
export interface CommonOptions {
  /** Wire name; defaults to the method name. */
  name?: string;
  /** Human-friendly display name (2025-06-18+). */
  title?: string;
  description?: string;
  /** Icons for clients that show them (2025-11-25+). */
  icons?: Icon[];
  /** Extra `_meta` published with the definition. */
  _meta?: Meta;
}

/** Options of `@Tool`. */
export interface ToolOptions extends CommonOptions {
  /**
   * The input DTO class. Defaults to the method's first parameter type; `null` declares a tool
   * without input whose first parameter is something else.
   */
  input?: Constructor | null;
  /** A raw JSON Schema (2020-12) used instead of a DTO, for what DTOs can't say. */
  inputSchema?: JsonSchema;
  /** The output DTO class: becomes `outputSchema`; the returned object is validated against it. */
  output?: Constructor;
  /**
   * A raw JSON Schema (2020-12, `type: "object"` at its root) used instead of an output DTO, for
   * outputs decided at start-up (an OpenAPI response, say): published as `outputSchema`, and the
   * returned object is validated against it as an output DTO's is.
   */
  outputSchema?: JsonSchema;
  /** Reject unknown arguments and publish `additionalProperties: false` (default: drop them). */
  strict?: boolean;
  /**
   * With `output`: publish `additionalProperties: false` on the output schema's objects and drop
   * what the output DTO does not declare from `structuredContent` (and its default text), so
   * nothing the handler returns beyond the declared shape reaches the client. Default false:
   * extras are sent.
   */
  strictOutput?: boolean;
  /**
   * With `output`: the text block sent beside `structuredContent`, from the handler's result
   * (default: the result's JSON).
   *
   * @example
   * @Tool({ output: Forecast, text: (f: Forecast) => `${f.city}: ${f.celsius} °C` })
   */
  text?: (result: never) => string;
  /** Cancel the handler (its `ctx.signal` aborts) and answer with an error after this long; overrides `createApp({ toolTimeoutMs })`. */
  timeoutMs?: number;
  annotations?: ToolAnnotations;
  /**
   * Lets clients run the tool as a task (`execution.taskSupport`): they get a task handle at once
   * and poll, wait for or cancel it. `'optional'`: the client chooses; `'required'`: where the
   * client's revision has tasks, it must use one; `'forbidden'`: never a task, and said so on the
   * wire (`execution.taskSupport: "forbidden"`, as the official reference servers publish it). The
   * handler is the same either way; `ctx.task` is set when it runs as a task. Default: never a
   * task, and `execution` left out.
   *
   * @example
   * @Tool({ task: 'optional' })
   * async export(input: ExportInput, ctx: RequestContext) { … }
   */
  task?: TaskSupport;
  /**
   * MCP Apps: the view the host shows beside this tool's results, and who may call the tool.
   * Published as `_meta.ui` to clients that declare the extension; others get the tool without it
   * (its text content is the answer), and never see or call a tool only the view may call.
   *
   * @example
   * @Tool({ ui: { view: 'ui://notes/board' } })
   * @Tool({ ui: { visibility: ['app'] } }) // called by the view, never offered to the model
   */
  ui?: ToolUiOptions;
  /**
   * Labels for the app's own use, never sent: a transform may drop the tools that carry one
   * (`createApp({ transforms: [{ drop: { tags: ['internal'] } }] })`, docs/compose.md). Default: none.
   */
  tags?: readonly string[];
}

/** The `ui` option of `@Tool` (the extension's `McpUiToolMeta`). */
export interface ToolUiOptions {
  /** The URI of an `@AppView` of this app (`ui://…`): published as `_meta.ui.resourceUri`. */
  view?: string;
  /**
   * Who may see and call the tool: `'model'` (the agent), `'app'` (views of this server). Default
   * both. `['app']`: the host keeps it out of the model's tool list, and a client without the
   * extension neither sees nor calls it.
   */
  visibility?: ToolVisibility[];
}

/** Whether a tool may run as a task (`execution.taskSupport` on the wire). */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** Options of `@Resource` (one fixed URI). */
export interface ResourceOptions extends CommonOptions {
  uri: string;
  mimeType?: string;
  /** Size in bytes, when known up front. */
  size?: number;
  annotations?: ContentAnnotations;
  /** How long 2026-07-28 clients may keep what this resource reads, and whether a shared cache may. */
  cache?: CacheHint;
}

/** Where a view may reach: the host builds the view's Content Security Policy from these origins. */
export interface ViewCsp {
  /** Origins of fetch, XHR and WebSocket requests (`connect-src`). */
  connectDomains?: string[];
  /** Origins of scripts, images, styles, fonts and media (`https://*.example.com` allowed). */
  resourceDomains?: string[];
  /** Origins of nested iframes (`frame-src`). */
  frameDomains?: string[];
  /** Allowed base URIs of the document (`base-uri`). */
  baseUriDomains?: string[];
}

/** Browser features a view asks the host for, each as `{}`; the host may grant them (iframe `allow`). */
export interface ViewPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** Options of `@AppView`: the resource's fields, and the extension's `McpUiResourceMeta` (`_meta.ui`). */
export interface AppViewOptions extends CommonOptions {
  /** The view's URI; it must start with `ui://`. */
  uri: string;
  csp?: ViewCsp;
  permissions?: ViewPermissions;
  /** A dedicated sandbox origin for the view, in the format the host documents. */
  domain?: string;
  /** `true`: the host draws a border and background; `false`: none; unset: the host decides. */
  prefersBorder?: boolean;
  /** How long 2026-07-28 clients may keep the HTML, and whether a shared cache may. */
  cache?: CacheHint;
}

/** Options of `@ResourceTemplate` (an RFC 6570 URI template). */
export interface ResourceTemplateOptions<T extends string = string> extends CommonOptions {
  uriTemplate: T;
  mimeType?: string;
  annotations?: ContentAnnotations;
  /** How long 2026-07-28 clients may keep what this template reads, and whether a shared cache may. */
  cache?: CacheHint;
}

/** Options of `@Prompt`. */
export interface PromptOptions extends CommonOptions {
  /** The arguments DTO (string fields only, as prompt arguments are strings on the wire). */
  input?: Constructor | null;
  /**
   * The arguments as the wire lists them, for a prompt without a DTO (one mirrored from another
   * server): each is a string, `required` ones must be given. Ignored when there is a DTO.
   */
  arguments?: PromptArgument[];
}
