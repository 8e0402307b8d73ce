import type { RequestStateStore } from '@mcpkit/core';
import type { Keys } from './keys';
import type { RedisLink } from './redis-link';

/**
 * Input-required exchanges in Redis, shared by every instance: a key per exchange taken with
 * `SET NX` and a lifetime to its states' expiry, so a completing round runs once whichever
 * instance its state is replayed on. While Redis cannot answer, `claim` rejects: the round is
 * refused (`-32603`, send it again shortly), never run twice.
 */
export class RedisRequestStateStore implements RequestStateStore {
  constructor(
    private readonly link: RedisLink,
    private readonly keys: Keys,
  ) {}

  async claim(id: string, expiresAt: number): Promise<boolean> {
    const ttlMs = Math.max(1, Math.ceil(expiresAt - Date.now()));
    return (await this.link.send(['SET', this.keys.requestState(id), '1', 'NX', 'PX', String(ttlMs)])) === 'OK';
  }

  async release(id: string): Promise<void> {
    await this.link.send(['DEL', this.keys.requestState(id)]);
  }
}
