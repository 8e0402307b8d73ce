import type { McpClient } from '@mcpkit/client';
import type { McpApp } from '@mcpkit/core';
import { addToMirror, createMirror, toCandidates } from './admit';
import { definitionOf, remoteCaller, type RemoteCall } from './definitions';
import { itemId, readRemote, type RemoteItem } from './mirror';
import type { ProxyOptions, ProxyTarget } from './proxy-options';
import { QuestionRelay } from './relay';
import { ResourceUpdates } from './resource-updates';
import { Upstream } from './upstream';

/**
 * What `proxy()` returns: the app that mirrors the remote (mount it, or serve it), and the
 * connection behind it. (An app is frozen once created, so the connection sits beside it.)
 */
export interface McpProxy {
  /** The mirror: a dynamic app whose items are the remote's. */
  readonly app: McpApp;
  /** The connected client, or undefined while the remote is away. */
  readonly client: McpClient | undefined;
  /** Whether a reconnect is waiting for its timer. */
  readonly reconnecting: boolean;
  /** Reads the remote's lists again and swaps what changed. */
  refresh(): Promise<void>;
  /** Stops reconnecting and closes the connection (a stdio child is stopped). */
  close(): Promise<void>;
}

/** At most this many of the remote's resources are followed for updates (one `resources/subscribe` each). */
const MAX_FOLLOWED = 256;

/**
 * Subscribes, on this connection, to the remote's listed resources it does not follow yet, so
 * their updates reach the gateway's subscribers (the mirror has no per-subscriber hook: it follows
 * them all, up to `MAX_FOLLOWED`).
 */
async function follow(client: McpClient, followed: WeakMap<McpClient, Set<string>>, items: readonly RemoteItem[], options: ProxyOptions): Promise<void> {
  if (client.capabilities.resources?.subscribe !== true) return;
  const seen = followed.get(client) ?? new Set<string>();
  followed.set(client, seen);
  for (const item of items) {
    if (item.kind !== 'resource' || seen.has(item.key) || seen.size >= MAX_FOLLOWED) continue;
    seen.add(item.key);
    await client.subscribe(item.key).catch((error: Error) => options.onError?.(error));
  }
}

/** Swaps the mirrored items for the remote's current ones: what left or changed is removed, what is new or changed added. */
function swap(app: McpApp, held: Map<string, string>, items: readonly RemoteItem[], remote: RemoteCall, report: (error: Error) => void): void {
  const next = new Map(items.map((item) => [itemId(item), JSON.stringify(item.entry)]));
  for (const [id, entry] of held) {
    if (next.get(id) === entry) continue;
    const [kind, ...rest] = id.split(':');
    app.remove(kind as RemoteItem['kind'], rest.join(':'));
    held.delete(id);
  }
  const fresh = items.filter((item) => !held.has(itemId(item)));
  const added = addToMirror(
    app,
    toCandidates(fresh, (item) => definitionOf(item, remote), report),
    report,
  );
  for (const item of added) held.set(itemId(item), JSON.stringify(item.entry));
}

/**
 * Re-lists one after another, and a burst of list changes costs one more re-list, not one each:
 * while a re-list waits to start, every change heard joins it (a change heard while one runs
 * starts the next, so nothing heard is missed).
 */
function coalesced(run: (client: McpClient) => Promise<void>): (client: McpClient) => Promise<void> {
  let queue: Promise<void> = Promise.resolve();
  let waiting: { client: McpClient; done: Promise<void> } | undefined;
  return (client) => {
    if (waiting !== undefined) {
      waiting.client = client;
      return waiting.done;
    }
    const next: { client: McpClient; done: Promise<void> } = { client, done: Promise.resolve() };
    // A failed re-list (told to onError by the upstream) must not stop the ones after it.
    next.done = queue
      .catch(() => undefined)
      .then(() => {
        waiting = undefined;
        return run(next.client);
      });
    waiting = next;
    queue = next.done;
    return next.done;
  };
}

/**
 * Another MCP server's tools, prompts, resources and templates, offered by an app of this
 * process: mount it (`createApp({ imports: [{ app, prefix }] })`) so every call passes through
 * the gateway's pipeline first (auth, guards, rate limits, audit). Progress, cancellation and
 * trace context go to the remote with each call; the remote's elicitation, sampling and roots
 * requests go to the caller of the call they belong to. The remote's list changes are mirrored
 * (the gateway's clients get `list_changed`), its resource updates relayed. A remote that goes
 * away fails its calls at once (an `isError` result for tools), is reconnected with a doubling
 * wait, and its lists read again.
 *
 * @param target A command to spawn (`{ command, args, env, cwd }`) or an HTTP endpoint (`{ url, headers, token }`).
 * @returns The mirror app and its connection, once connected and listed.
 * @throws McpClientError when the first connection fails.
 *
 * @example
 * const everything = await proxy({ command: 'node', args: ['everything/dist/main.js', 'stdio'] }, { exclude: [/^test_admin_/] });
 * const gateway = createApp({ name: 'gateway', version: '1.0.0', providers: [], imports: [{ app: everything.app, prefix: 'everything' }] });
 */
export async function proxy(target: ProxyTarget, options: ProxyOptions = {}): Promise<McpProxy> {
  const relay = new QuestionRelay();
  const held = new Map<string, string>();
  const followed = new WeakMap<McpClient, Set<string>>();
  // The app exists once the remote is listed; a change heard before then is in that first list.
  const made: { app?: McpApp } = {};
  let remote: RemoteCall = () => Promise.reject(new Error('not started'));
  const report = (error: Error) => options.onError?.(error);
  const relist = coalesced(async (client) => {
    const items = await readRemote(client, options);
    if (made.app !== undefined) swap(made.app, held, items, remote, report);
    await follow(client, followed, items, options);
  });
  const updates = new ResourceUpdates((uri) => made.app?.resourceUpdated(uri));
  const upstream = new Upstream(target, options, relay, {
    listsChanged: relist,
    resourceUpdated: (uri, client) => updates.heard(uri, followed.get(client)),
  });
  const client = await upstream.connect();
  remote = remoteCaller(
    () => upstream.client,
    relay,
    (lostClient, error) => upstream.drop(lostClient, error),
    report,
  );
  let items: RemoteItem[];
  try {
    items = await readRemote(client, options);
  } catch (error) {
    await upstream.close();
    throw error;
  }
  const info = client.server.serverInfo;
  const { app, kept } = createMirror(
    {
      name: options.name ?? info.name,
      version: options.version ?? info.version,
      dynamic: true,
      subscriptions: client.capabilities.resources?.subscribe === true,
    },
    toCandidates(items, (item) => definitionOf(item, remote), report),
    report,
  );
  for (const item of kept) held.set(itemId(item), JSON.stringify(item.entry));
  made.app = app;
  await follow(client, followed, kept, options);
  return {
    app,
    get client() {
      return upstream.client;
    },
    get reconnecting() {
      return upstream.reconnecting;
    },
    refresh: () => (upstream.client ? relist(upstream.client) : Promise.resolve()),
    close: () => upstream.close(),
  };
}
