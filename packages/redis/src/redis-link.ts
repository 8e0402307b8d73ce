import { createHash } from 'node:crypto';
import { createClient } from 'redis';
import type { Logger } from '@mcpkit/core';
import type { RedisClientLike } from './options';

type AnyClient = RedisClientLike;

/** A Redis command that got no reply within `commandTimeoutMs`. */
export class RedisTimeoutError extends Error {
  constructor(command: string, ms: number) {
    super(`Redis did not answer ${command} within ${ms} ms`);
    this.name = 'RedisTimeoutError';
  }
}

/**
 * The two connections of one instance: commands, and pub/sub (a subscribed connection serves
 * nothing else). Commands are raw argument lists (`sendCommand`), so every store speaks plain
 * Redis and a user-supplied client needs no module of ours. Fail fast: no offline queue and a
 * bounded command time, so a request never waits on a Redis that is down.
 */
export class RedisLink {
  readonly commands: AnyClient;
  private readonly subscriber: AnyClient;
  private readonly owned: boolean;
  private readonly readyListeners = new Set<() => void>();
  private readonly connected: Promise<void>;
  private closed = false;
  private readonly shas = new Map<string, string>();
  private refused: Error | undefined = undefined;

  constructor(
    source: { url?: string; client?: AnyClient },
    private readonly commandTimeoutMs: number,
    private readonly logger: Logger | undefined,
  ) {
    if (source.client !== undefined) {
      this.commands = source.client;
      this.owned = false;
    } else {
      if (typeof source.url !== 'string') throw new TypeError('redisScaleOut: give `url` or `client`');
      this.commands = createClient({
        url: source.url,
        disableOfflineQueue: true,
        commandOptions: { timeout: commandTimeoutMs },
        // A Redis that hangs cannot make this process queue without bound: past it, commands fail at once.
        commandsQueueMaxLength: 10_000,
        socket: {
          connectTimeout: commandTimeoutMs,
          // Back within a second of Redis coming back; never give up.
          reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 5), 1_000),
        },
      }) as unknown as AnyClient;
      this.owned = true;
    }
    this.subscriber = this.commands.duplicate({ disableOfflineQueue: true }) as unknown as AnyClient;
    for (const [name, client] of [
      ['commands', this.commands],
      ['pubsub', this.subscriber],
    ] as const) {
      // node-redis reconnects by itself; an unhandled 'error' would crash the process.
      client.on('error', (error: unknown) => {
        if (!this.closed) this.logger?.warn({ err: error, connection: name }, 'Redis connection error');
      });
    }
    this.subscriber.on('ready', () => {
      for (const listener of this.readyListeners) listener();
    });
    this.connected = Promise.all([this.commands.isOpen ? undefined : this.commands.connect(), this.subscriber.connect()]).then(() => undefined);
    // Failures are reported by `ready()`; the clients keep trying on their own.
    this.connected.catch(() => undefined);
  }

  /** Resolves once both connections are up the first time. */
  ready(): Promise<void> {
    return this.connected;
  }

  /**
   * One command; rejects at once while Redis is unreachable, and after `commandTimeoutMs` at
   * most. The timer is ours: node-redis's command timeout covers only the wait to be written,
   * not the wait for a reply from a Redis that hangs.
   */
  send(args: readonly string[]): Promise<unknown> {
    if (this.refused) return Promise.reject(this.refused);
    if (args[0] !== 'EVAL') return this.raw(args);
    // Scripts go by their SHA1 (Redis caches them by it), and once in full if Redis forgot them (a restart).
    const script = args[1];
    let sha = this.shas.get(script);
    if (sha === undefined) this.shas.set(script, (sha = createHash('sha1').update(script).digest('hex')));
    return this.raw(['EVALSHA', sha, ...args.slice(2)]).catch((error: unknown) => {
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) return this.raw(args);
      throw error;
    });
  }

  private raw(args: readonly string[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new RedisTimeoutError(args[0], this.commandTimeoutMs)), this.commandTimeoutMs);
      this.commands.sendCommand(args as string[]).then(
        (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  /**
   * From now on every command fails with `error` (requests are answered 503): the prefix holds
   * another app's state, which this instance must neither serve nor change.
   */
  refuse(error: Error): void {
    this.refused ??= error;
    this.logger?.error({ err: error }, error.message);
  }

  /** Subscribes `listener` to `channel` (re-subscribed by node-redis after a reconnect). */
  async subscribe(channel: string, listener: (message: string) => void): Promise<void> {
    await this.subscriber.subscribe(channel, (message: string) => listener(message));
  }

  /** Called each time the pub/sub connection is (again) ready: what was published meanwhile was lost. */
  onReady(listener: () => void): () => void {
    this.readyListeners.add(listener);
    return () => this.readyListeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await shut(this.subscriber);
    if (this.owned) await shut(this.commands);
  }
}

/** Closes gracefully when the connection is up, at once when it is down (a graceful close would wait for it). */
async function shut(client: AnyClient): Promise<void> {
  try {
    if (client.isReady) await client.close();
    else if (client.isOpen) client.destroy();
  } catch {
    // Already gone.
  }
}
