export { redisScaleOut, resolveRedisOptions, type RedisScaleOut, type RedisHttpOptions } from './redis-scale-out';
export type { RedisScaleOutOptions, ResolvedRedisOptions, RedisClientLike } from './options';
