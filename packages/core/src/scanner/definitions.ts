import type { HeaderParam } from './header-params';
import type { CacheHint } from '../results/cache-hints';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../protocol/mcp-types';
import type { UriTemplate } from '../uri-template/uri-template';
import type { InputParser, ValueChecker } from '../validation/validator-factory';
import type { RequestContext } from '../model/request-context';
import type { Policy } from './read-policy';

/** A bound handler: `(input, ctx)`. */
export type Invoker = (input: unknown, ctx: RequestContext) => unknown;

/** A tool compiled at start-up: everything the hot path needs, nothing it must compute. */
export interface ToolDefinition {
  readonly name: string;
  /** `Class.method`, for messages and logs. */
  readonly owner: string;
  readonly entry: Tool;
  /** @internal */
  readonly parseInput: InputParser;
  /** @internal */
  readonly checkOutput: ValueChecker | undefined;
  /** @internal `strictOutput`: drops what the output schema does not name. */
  readonly pickOutput: ((value: unknown) => unknown) | undefined;
  /** @internal `text`: the text block beside structured content. */
  readonly outputText: ((result: unknown) => string) | undefined;
  /** @internal The bound handler. */
  readonly invoke: Invoker;
  /** Per-tool timeout in ms, when the decorator sets one. */
  readonly timeoutMs: number | undefined;
  /** Arguments mirrored into `Mcp-Param-*` headers (`x-mcp-header`), checked by HTTP transports. */
  readonly headerParams: readonly HeaderParam[];
  /** Whether it may run as a task; undefined: never. */
  readonly taskSupport: 'optional' | 'required' | undefined;
  /** MCP Apps: the URI of the view its results are shown in (`ui.view`); undefined: none. */
  readonly view: string | undefined;
  /**
   * MCP Apps: only the view may call it (`ui.visibility` without `'model'`). Clients without the
   * extension neither see nor call it.
   */
  readonly appOnly: boolean;
  /** @internal Guards, scopes, interceptors … declared on its class and method. */
  readonly policy: Policy;
  /** `@Tool({ tags })`: labels transforms select by; never on the wire. */
  readonly tags: readonly string[];
  /**
   * Left out of `tools/list` yet callable by name (progressive disclosure: the `searchTools`
   * transform finds it for the model). Absent: listed.
   */
  readonly unlisted?: boolean;
}

export interface ResourceDefinition {
  readonly uri: string;
  readonly owner: string;
  readonly entry: Resource;
  /** @internal The bound handler. */
  readonly invoke: Invoker;
  readonly cache: CacheHint | undefined;
  /** @internal Guards, scopes, interceptors … declared on its class and method. */
  readonly policy: Policy;
}

export interface ResourceTemplateDefinition {
  readonly template: UriTemplate;
  readonly owner: string;
  readonly entry: ResourceTemplate;
  /** @internal The bound handler. */
  readonly invoke: Invoker;
  readonly cache: CacheHint | undefined;
  /** @internal Guards, scopes, interceptors … declared on its class and method. */
  readonly policy: Policy;
}

export interface PromptDefinition {
  readonly name: string;
  readonly owner: string;
  readonly entry: Prompt;
  /** @internal */
  readonly parseArguments: InputParser;
  /** @internal The bound handler. */
  readonly invoke: Invoker;
  /** @internal Guards, scopes, interceptors … declared on its class and method. */
  readonly policy: Policy;
}

/** The frozen capability map of an app. */
export interface CapabilityMap {
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  readonly resources: ReadonlyMap<string, ResourceDefinition>;
  readonly templates: readonly ResourceTemplateDefinition[];
  readonly prompts: ReadonlyMap<string, PromptDefinition>;
}

/** A `@Complete` method, keyed in the app by `prompt:<name>:<argument>` or `resource:<template>:<variable>`. */
export interface CompletionDefinition {
  readonly owner: string;
  /** @internal The bound handler. */
  readonly invoke: (value: string, context: { arguments: Record<string, string> }, ctx: RequestContext) => unknown;
}
