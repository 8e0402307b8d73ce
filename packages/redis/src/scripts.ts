/**
 * The Lua scripts: each is one atomic step over the keys of one session (one hash tag) or one
 * bucket. Sent with EVAL; Redis caches the compiled script by its text.
 */

/**
 * KEYS: record, then the keys that live as long as it. ARGV: ttl ms. Returns { record JSON, log
 * level or nothing }, or nil: never re-creates an expired one.
 */
export const TOUCH_SESSION = `
local state = redis.call('HMGET', KEYS[1], 'r', 'll')
if not state[1] then return false end
for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
return state`;

/** KEYS: record. ARGV: log level ('' removes it). Only on a live session. */
export const SET_LOG_LEVEL = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] == '' then redis.call('HDEL', KEYS[1], 'll') else redis.call('HSET', KEYS[1], 'll', ARGV[1]) end
return 1`;

/** KEYS: record, its streams set, then fixed keys to drop. ARGV: the events-key prefix of the session. */
export const DELETE_SESSION = `
local streams = redis.call('SMEMBERS', KEYS[2])
for _, stream in ipairs(streams) do
  redis.call('DEL', ARGV[1] .. 'ev:' .. stream, ARGV[1] .. 'evb:' .. stream, ARGV[1] .. 'evm:' .. stream)
end
for i = 1, #KEYS do redis.call('DEL', KEYS[i]) end
return #streams`;

/** KEYS: the session's streams set. ARGV: the events-key prefix of the session. */
export const DELETE_STREAMS = `
local streams = redis.call('SMEMBERS', KEYS[1])
for _, stream in ipairs(streams) do
  redis.call('DEL', ARGV[1] .. 'ev:' .. stream, ARGV[1] .. 'evb:' .. stream, ARGV[1] .. 'evm:' .. stream)
end
redis.call('DEL', KEYS[1])
return #streams`;

/**
 * Appends one event to a stream, bounded in count and bytes, oldest first out.
 * KEYS: events, bytes, streams set, record. ARGV: id ('*' lets Redis mint it), data, bytes,
 * max events, max bytes, ttl ms, stream name, require-record ('1': only while the session exists).
 * Returns the id, or nil when the session is gone (nothing written).
 */
export const APPEND_EVENT = `
if ARGV[8] == '1' and redis.call('EXISTS', KEYS[4]) == 0 then return false end
local id = redis.call('XADD', KEYS[1], ARGV[1], 'm', ARGV[2], 'b', ARGV[3])
local total = redis.call('INCRBY', KEYS[2], ARGV[3])
local maxEvents = tonumber(ARGV[4])
local maxBytes = tonumber(ARGV[5])
local count = redis.call('XLEN', KEYS[1])
while count > 1 and (count > maxEvents or total > maxBytes) do
  local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
  local fields = oldest[2]
  local size = 0
  for i = 1, #fields, 2 do if fields[i] == 'b' then size = tonumber(fields[i + 1]) end end
  redis.call('XDEL', KEYS[1], oldest[1])
  total = redis.call('DECRBY', KEYS[2], size)
  count = count - 1
end
redis.call('SADD', KEYS[3], ARGV[7])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
redis.call('PEXPIRE', KEYS[3], ARGV[6])
return id`;

/**
 * Sets one field of a POST stream's meta HASH, only while the session exists, and lists the
 * stream for deletion. KEYS: meta, streams set, record. ARGV: field, value, ttl ms, stream name.
 */
export const SET_STREAM_META = `
if redis.call('EXISTS', KEYS[3]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if ARGV[5] then redis.call('HSET', KEYS[1], ARGV[5], ARGV[6]) end
redis.call('SADD', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`;

/** KEYS: the prefix's app key. ARGV: this app's name. Claims the prefix if nobody has; returns its app's name. */
export const CLAIM_PREFIX = `
local app = redis.call('GET', KEYS[1])
if app then return app end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]`;

/** KEYS: owner. ARGV: instance. Deletes the claim only if it is still that instance's. */
export const RELEASE_OWNER = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * A token bucket: KEYS: bucket. ARGV: limit, window ms. Uses Redis's clock, so instances with
 * skewed clocks agree. Returns 0 (go ahead) or the ms until a token is back.
 */
export const TAKE_TOKEN = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or limit
local at = tonumber(state[2]) or now
local perMs = limit / window
tokens = math.min(limit, tokens + math.max(0, now - at) * perMs)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) / perMs) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], window)
return wait`;

/** Lua shared by the task scripts: whether a status is terminal, and giving a key another's lifetime. */
const TASK_LUA = `
local function finished(status) return status == 'completed' or status == 'failed' or status == 'cancelled' end
local function sameLife(key, as)
  local at = redis.call('PEXPIRETIME', as)
  if at > 0 then redis.call('PEXPIREAT', key, at) elseif at == -1 then redis.call('PERSIST', key) end
end`;

/**
 * Compare-and-set of a task. KEYS: the task's HASH, the store's index, the owner's index, the
 * owner's finished index, the givers. ARGV: the version read, status, JSON, the owner as the
 * indexes name it, the task id, created at. A task that finishes joins its owner's finished
 * index, and its owner the givers (an ownerless task has no owner to rank).
 * Returns 1 (written), 0 (the version moved: read again) or -1 (gone or terminal).
 */
export const UPDATE_TASK = `${TASK_LUA}
local state = redis.call('HMGET', KEYS[1], 'v', 's')
if not state[1] then return -1 end
if finished(state[2]) then return -1 end
if state[1] ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', tostring(tonumber(state[1]) + 1), 's', ARGV[2], 'j', ARGV[3])
if finished(ARGV[2]) and redis.call('ZSCORE', KEYS[2], ARGV[5]) then
  redis.call('ZADD', KEYS[4], ARGV[6], ARGV[5])
  sameLife(KEYS[4], KEYS[3])
  if ARGV[4] ~= '-' then
    redis.call('ZADD', KEYS[5], redis.call('ZCARD', KEYS[3]), ARGV[4])
    sameLife(KEYS[5], KEYS[2])
  end
end
return 1`;

/**
 * Creates a task within the store's bounds. KEYS: the task's HASH, the store's index (every task,
 * scored by when it expires, \`+inf\` for never), the owner's index (its tasks by creation; the
 * ownerless tasks share one, which no bound reads), the task owners, the givers, the owner's
 * finished index. ARGV: now, expires at ('' for never), JSON, status, task id, created at,
 * maxTasks, maxTasksPerOwner, the prefix of task keys, the owner as the indexes name it ('-' for
 * none), the prefix of the index keys.
 * Expired tasks leave every index first (their owners known from the task owners). At its share
 * an owner gives its oldest finished task; a full store, the oldest finished task of the giver
 * holding the most, an ownerless one (\`f:-\`) before a giver of one. Each index then lives until
 * its last task expires. Returns 'ok', or the bound that refused the task ('owner' or 'store';
 * nothing written).
 */
export const CREATE_TASK = `${TASK_LUA}
local P, owner = ARGV[11], ARGV[10]
local function rank(key)
  if key == '-' then return end
  if redis.call('ZCARD', P .. 'f:' .. key) > 0 then
    redis.call('ZADD', KEYS[5], redis.call('ZCARD', P .. key), key)
  else
    redis.call('ZREM', KEYS[5], key)
  end
end
local function forget(id, key)
  redis.call('DEL', ARGV[9] .. id)
  redis.call('ZREM', KEYS[2], id)
  redis.call('HDEL', KEYS[4], id)
  if key then
    redis.call('ZREM', P .. key, id)
    redis.call('ZREM', P .. 'f:' .. key, id)
    rank(key)
  end
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])) do forget(id, redis.call('HGET', KEYS[4], id)) end
if owner ~= '-' and redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[8]) then
  local done = redis.call('ZRANGE', KEYS[6], 0, 0)[1]
  if not done then return 'owner' end
  forget(done, owner)
end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[7]) then
  local top = redis.call('ZREVRANGE', KEYS[5], 0, 0, 'WITHSCORES')
  local giver = top[1]
  if (not giver or tonumber(top[2]) <= 1) and redis.call('EXISTS', P .. 'f:-') == 1 then giver = '-' end
  local done = giver and redis.call('ZRANGE', P .. 'f:' .. giver, 0, 0)[1]
  if not done then return 'store' end
  forget(done, giver)
end
local expires = ARGV[2] == '' and math.huge or tonumber(ARGV[2])
-- Read before the writes below: a key that does not exist yet has no lifetime either.
local ownerLife = redis.call('PEXPIRETIME', KEYS[3])
redis.call('HSET', KEYS[1], 'v', '1', 's', ARGV[4], 'j', ARGV[3])
if expires ~= math.huge then redis.call('PEXPIREAT', KEYS[1], ARGV[2]) end
redis.call('ZADD', KEYS[2], expires == math.huge and '+inf' or ARGV[2], ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[5])
redis.call('HSET', KEYS[4], ARGV[5], owner)
if finished(ARGV[4]) then redis.call('ZADD', KEYS[6], ARGV[6], ARGV[5]) end
rank(owner)
-- An index lives until its last task expires; one already kept forever (-1) stays so.
if expires == math.huge then
  redis.call('PERSIST', KEYS[3])
elseif ownerLife ~= -1 then
  redis.call('PEXPIREAT', KEYS[3], string.format('%.0f', math.max(expires, ownerLife)))
end
sameLife(KEYS[6], KEYS[3])
local top = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
if top[2] == 'inf' then redis.call('PERSIST', KEYS[2]) else redis.call('PEXPIREAT', KEYS[2], top[2]) end
sameLife(KEYS[4], KEYS[2])
sameLife(KEYS[5], KEYS[2])
return 'ok'`;

/**
 * Appends a broadcast, the log bounded by deleting its oldest (XDEL, not a MAXLEN trim, so
 * Redis records the newest entry deleted: a position before it lost entries and is refused).
 * KEYS: the broadcast log. ARGV: max entries, field, value. Returns the id.
 */
export const APPEND_BROADCAST = `
local id = redis.call('XADD', KEYS[1], '*', ARGV[2], ARGV[3])
local count = redis.call('XLEN', KEYS[1])
local max = tonumber(ARGV[1])
while count > max do
  redis.call('XDEL', KEYS[1], redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1][1])
  count = count - 1
end
return id`;

/**
 * What bounds a resumable broadcast position. KEYS: the broadcast log. Returns { the last id
 * minted, the newest id deleted } ('0-0' each for a log never written): a position is resumable
 * when it lies between the two.
 */
export const BROADCAST_BOUNDS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return { '0-0', '0-0' } end
local info = redis.call('XINFO', 'STREAM', KEYS[1])
local last, deleted = '0-0', '0-0'
for i = 1, #info, 2 do
  if info[i] == 'last-generated-id' then last = info[i + 1] elseif info[i] == 'max-deleted-entry-id' then deleted = info[i + 1] end
end
return { last, deleted }`;

/**
 * Stores a GET stream's delivery cursors (`gc`: its log, `bc`: the broadcast log) where a GET
 * without `Last-Event-ID` starts, only on a live session. KEYS: record. ARGV: gc, bc ('' keeps it).
 */
export const SET_CURSORS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'gc', ARGV[1])
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'bc', ARGV[2]) end
return 1`;

/**
 * Renews a GET stream's lease while it is still this instance's (1), storing its broadcast
 * cursor on the way (the fan-out writes none per broadcast); 0 when taken over.
 * KEYS: owner, record. ARGV: instance, lease ms, bc.
 */
export const RENEW_OWNER = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('HSET', KEYS[2], 'bc', ARGV[3]) end
return 1`;

/**
 * Lets go of a GET stream still this instance's, storing where it stopped in both logs.
 * KEYS: owner, record. ARGV: instance, gc, bc.
 */
export const RELEASE_STREAM = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('HSET', KEYS[2], 'gc', ARGV[2], 'bc', ARGV[3]) end
return 1`;

/** A new session's broadcast cursor, only on a live session. KEYS: record. ARGV: bc. */
export const SET_BROADCAST_CURSOR = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'bc', ARGV[1])
return 1`;
