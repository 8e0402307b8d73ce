import { LOG_LEVEL_META_KEY, Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { McpClient } from '@mcpkit/client';

/**
 * One client under test, whoever wrote it: the behaviour suite (client-behaviour.e2e.spec.ts)
 * runs the same cases through this, with the official SDK clients and with @mcpkit/client.
 */
export interface BehaviourClient {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: { onProgress?: (progress: number) => void; signal?: AbortSignal },
  ): Promise<Record<string, unknown>>;
  listResources(): Promise<{ resources: unknown[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: Array<{ uriTemplate: string }> }>;
  readResource(uri: string): Promise<{ contents: unknown[] }>;
  listPrompts(): Promise<{ prompts: Array<{ name: string }> }>;
  getPrompt(name: string, args: Record<string, string>): Promise<{ messages: Array<{ content: unknown }> }>;
  complete(prompt: string, argument: string, value: string): Promise<{ completion: { values: string[] } }>;
  setLogLevel(level: 'info'): Promise<void>;
  /** Subscribes to a resource; resolves with the function that ends the subscription. */
  subscribe(uri: string): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** What the server asks, answered the same by every client; and what it tells, recorded. */
export interface Seen {
  elicitations: Array<Record<string, unknown>>;
  logs: unknown[];
  updates: string[];
  toolListChanges: number;
}

export type Way = { transport: 'stdio' | 'http'; main: string; url?: string };

/** A client of the suite: who wrote it, the era it speaks, how to connect it. */
export interface ClientKind {
  name: string;
  era: 'legacy' | 'modern';
  connect(way: Way, seen: Seen): Promise<BehaviourClient>;
}

/**
 * When the everything app adds its dynamic tool. Its default, two seconds after it starts serving, can pass
 * before a client on a loaded machine has connected and started listening, and the notification
 * it waits for would then have gone out to nobody.
 */
export const DYNAMIC_AFTER_MS = '4000';
const ENV = { ...process.env, LOG_LEVEL: 'warn', DYNAMIC_AFTER_MS } as Record<string, string>;
const CAPABILITIES = { sampling: {}, elicitation: { form: {}, url: {} }, roots: {} };
const MODERN = '2026-07-28';

function elicit(seen: Seen, params: Record<string, unknown>) {
  seen.elicitations.push(params);
  return params.mode === 'url' ? { action: 'accept' as const } : { action: 'accept' as const, content: { response: 'yes please' } };
}

function sample(params: { messages: Array<{ content: unknown }> }) {
  return { role: 'assistant' as const, model: 'stub', content: { type: 'text' as const, text: `echo: ${JSON.stringify(params.messages[0].content)}` } };
}

const ROOTS = { roots: [{ uri: 'file:///projects/kit', name: 'kit' }] };

/** What both official clients read the same way (their v1 and v2 signatures agree). */
type Reads = Pick<BehaviourClient, 'listResources' | 'listResourceTemplates' | 'readResource' | 'listPrompts' | 'getPrompt' | 'complete'>;
interface OfficialReads {
  listResources(): Promise<{ resources: unknown[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: Array<{ uriTemplate: string }> }>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  listPrompts(): Promise<{ prompts: Array<{ name: string }> }>;
  getPrompt(params: { name: string; arguments: Record<string, string> }): Promise<{ messages: Array<{ content: unknown }> }>;
  complete(params: { ref: { type: 'ref/prompt'; name: string }; argument: { name: string; value: string } }): Promise<{ completion: { values: string[] } }>;
}

function reads(client: OfficialReads): Reads {
  return {
    listResources: () => client.listResources(),
    listResourceTemplates: () => client.listResourceTemplates(),
    readResource: (uri) => client.readResource({ uri }),
    listPrompts: () => client.listPrompts(),
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
    complete: (prompt, argument, value) => client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name: argument, value } }),
  };
}

/** The official SDK v1 client: the legacy era (2025-11-25). */
const officialV1: ClientKind = {
  name: 'the official SDK v1 client',
  era: 'legacy',
  async connect(way, seen) {
    const client = new Client({ name: 'behaviour', version: '1' }, { capabilities: CAPABILITIES });
    client.setRequestHandler(ElicitRequestSchema, async (request) => elicit(seen, request.params as Record<string, unknown>));
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => sample(request.params as never));
    client.setRequestHandler(ListRootsRequestSchema, async () => ROOTS);
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void seen.logs.push(notification.params.data));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void seen.updates.push(notification.params.uri));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void seen.toolListChanges++);
    await client.connect(
      way.transport === 'stdio'
        ? new StdioClientTransport({ command: process.execPath, args: [way.main, 'stdio'], env: ENV, stderr: 'pipe' })
        : new StreamableHTTPClientTransport(new URL(way.url!)),
    );
    return {
      listTools: () => client.listTools(),
      callTool: (name, args = {}, options = {}) =>
        client.callTool({ name, arguments: args }, undefined, {
          signal: options.signal,
          ...(options.onProgress ? { onprogress: (progress: { progress: number }) => options.onProgress!(progress.progress) } : {}),
        }) as Promise<Record<string, unknown>>,
      ...reads(client),
      setLogLevel: async (level) => void (await client.setLoggingLevel(level)),
      subscribe: async (uri) => {
        await client.subscribeResource({ uri });
        return async () => void (await client.unsubscribeResource({ uri }));
      },
      close: () => client.close(),
    };
  },
};

/** The official v2 client pinned to 2026-07-28: the modern era. */
const officialV2: ClientKind = {
  name: 'the official v2 client',
  era: 'modern',
  async connect(way, seen) {
    const client = new ModernClient({ name: 'behaviour', version: '1' }, { capabilities: CAPABILITIES, versionNegotiation: { mode: { pin: MODERN } } });
    client.setRequestHandler('elicitation/create', async (request) => elicit(seen, request.params as Record<string, unknown>));
    client.setRequestHandler('sampling/createMessage', async (request) => sample(request.params as never));
    client.setRequestHandler('roots/list', async () => ROOTS);
    client.setNotificationHandler('notifications/message', (notification) => void seen.logs.push(notification.params.data));
    client.setNotificationHandler('notifications/resources/updated', (notification) => void seen.updates.push(notification.params.uri));
    client.setNotificationHandler('notifications/tools/list_changed', () => void seen.toolListChanges++);
    await client.connect(
      way.transport === 'stdio'
        ? new ModernStdio({ command: process.execPath, args: [way.main, 'stdio'], env: ENV, stderr: 'pipe' })
        : new ModernHttp(new URL(way.url!)),
    );
    // The tools list changes two seconds after start: a modern client hears it on a listen.
    const changes = await client.listen({ toolsListChanged: true });
    // No logging/setLevel on 2026-07-28: the level travels in each request's _meta.
    let logLevel: string | undefined;
    return {
      listTools: () => client.listTools(),
      callTool: (name, args = {}, options = {}) =>
        client.callTool(
          { name, arguments: args, ...(logLevel ? { _meta: { [LOG_LEVEL_META_KEY]: logLevel } } : {}) },
          {
            signal: options.signal,
            ...(options.onProgress ? { onprogress: (progress: { progress: number }) => options.onProgress!(progress.progress) } : {}),
          },
        ) as Promise<Record<string, unknown>>,
      ...reads(client),
      setLogLevel: async (level) => void (logLevel = level),
      subscribe: async (uri) => {
        const subscription = await client.listen({ resourceSubscriptions: [uri] });
        return () => subscription.close();
      },
      close: async () => {
        await changes.close();
        await client.close();
      },
    };
  },
};

/** @mcpkit/client, in the era asked for (auto finds 2026-07-28 on this server). */
function mcpkit(era: 'legacy' | 'modern'): ClientKind {
  return {
    name: '@mcpkit/client',
    era,
    async connect(way, seen) {
      const client = await McpClient.connect(
        way.transport === 'stdio' ? { command: process.execPath, args: [way.main, 'stdio'], env: ENV, stderr: 'pipe' } : { url: way.url! },
        {
          era: era === 'modern' ? 'auto' : 'legacy',
          capabilities: { elicitation: { form: {}, url: {} } },
          handlers: {
            'elicitation/create': (params) => elicit(seen, params),
            'sampling/createMessage': (params) => sample(params as never),
            'roots/list': () => ROOTS,
          },
        },
      );
      if (client.era !== era) throw new Error(`@mcpkit/client opened the ${client.era} era, not ${era}`);
      client.on('notifications/message', (params) => void seen.logs.push(params.data));
      client.on('notifications/resources/updated', (params) => void seen.updates.push(params.uri as string));
      client.on('notifications/tools/list_changed', () => void seen.toolListChanges++);
      return {
        listTools: () => client.listTools(),
        callTool: (name, args = {}, options = {}) =>
          client.callTool(name, args, {
            signal: options.signal,
            ...(options.onProgress ? { onProgress: (progress) => options.onProgress!(progress.progress) } : {}),
          }) as unknown as Promise<Record<string, unknown>>,
        listResources: () => client.listResources(),
        listResourceTemplates: () => client.listResourceTemplates(),
        readResource: (uri) => client.readResource(uri),
        listPrompts: () => client.listPrompts(),
        getPrompt: (name, args) => client.getPrompt(name, args),
        complete: (prompt, argument, value) => client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name: argument, value } }),
        setLogLevel: (level) => client.setLogLevel(level),
        subscribe: async (uri) => {
          await client.subscribe(uri);
          return () => client.unsubscribe(uri);
        },
        close: () => client.close(),
      };
    },
  };
}

/** Every client the suite holds to the same cases. */
export const CLIENT_KINDS: readonly ClientKind[] = [officialV1, officialV2, mcpkit('legacy'), mcpkit('modern')];
