// The Lua scripts the team store runs on Redis/Valkey. Each one reads and changes one handle's two
// keys atomically on the server, so two processes racing on the same handle cannot leave a data
// key and its metadata disagreeing, and every operation costs one round trip.
//
// Keys: KEYS[1] is the data key `caveman:ccr:v2:<namespace>:{<handle>}` (the original's bytes,
// written with SET … NX, never changed in place); KEYS[2] is `<data key>:meta`, a hash:
//   sha256 size kind producer tin tout created — the first put's facts (absent fields = null)
//   stored  ms when this incarnation was first stored (the maximum lifetime counts from here)
//   last    ms of the last put or get (the idle window counts from here; never moves backwards)
//   hits    successful gets
//   state   live | expired | corrupt
// Times come from the caller's clock (ARGV), never from Redis, so tests can drive them; the Redis
// TTLs only back the rules up: the data key lives `grace` past its computed deadline, the meta
// key `tombstone` longer still, so an expired handle is reported as expired (not unknown) for
// that long. Numbers are handed to Redis as strings formatted with %d: Lua 5.1's tostring would
// print large doubles in exponent form.

/** Shared Lua: `live(now, stored, last, state)` and `refresh(stored, last)` (sets both TTLs). */
const PRELUDE = `
local now, idle, maxAge = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local grace, tomb = tonumber(ARGV[4]), tonumber(ARGV[5])
local m = redis.call('HMGET', KEYS[2], 'stored', 'last', 'state')
local stored, last, state = tonumber(m[1]), tonumber(m[2]), m[3]
local function live()
  return stored ~= nil and last ~= nil and state == 'live' and now - last <= idle and now - stored <= maxAge
end
local function refresh()
  local ttl = math.min(last + idle, stored + maxAge) - now + grace
  if ttl < 1 then ttl = 1 end
  redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl))
  redis.call('PEXPIRE', KEYS[2], string.format('%d', ttl + tomb))
end
local function bury()
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[2], 'state', 'expired')
  redis.call('PEXPIRE', KEYS[2], string.format('%d', tomb))
end
`;

/**
 * PUT. ARGV: now idle maxAge grace tombstone bytes, then field/value pairs of the first put's
 * facts. A live handle keeps its bytes and metadata (SET NX; the idle window slides); anything
 * else (unknown, expired, corrupt, orphan data) starts a fresh incarnation. Returns 1 when this
 * put wrote the bytes, 0 when they were already there.
 */
export const PUT_LUA = `${PRELUDE}
local created = 0
if live() then
  if redis.call('SET', KEYS[1], ARGV[6], 'NX') then created = 1 end
  if now > last then
    redis.call('HSET', KEYS[2], 'last', ARGV[1])
    last = now
  end
else
  redis.call('DEL', KEYS[1], KEYS[2])
  redis.call('SET', KEYS[1], ARGV[6], 'NX')
  redis.call('HSET', KEYS[2], 'stored', ARGV[1], 'last', ARGV[1], 'hits', '0', 'state', 'live')
  for i = 7, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
  stored, last, created = now, now, 1
end
refresh()
return created
`;

/**
 * GET. ARGV: now idle maxAge grace tombstone. Replies {'unknown'}, {'expired'}, {'corrupt'},
 * {'orphan'} (data without metadata), or {'ok', bytes, field, value, …} after sliding the idle
 * window and counting the hit. The caller verifies the bytes against sha256 before using them.
 */
export const GET_LUA = `${PRELUDE}
if stored == nil or last == nil then
  if redis.call('EXISTS', KEYS[1]) == 1 then return {'orphan'} end
  return {'unknown'}
end
if state == 'corrupt' then return {'corrupt'} end
if not live() then
  if state ~= 'expired' then bury() end
  return {'expired'}
end
local v = redis.call('GET', KEYS[1])
if not v then
  bury()
  return {'expired'}
end
if now > last then
  redis.call('HSET', KEYS[2], 'last', ARGV[1])
  last = now
end
redis.call('HINCRBY', KEYS[2], 'hits', 1)
refresh()
local r = {'ok', v}
for _, x in ipairs(redis.call('HGETALL', KEYS[2])) do r[#r + 1] = x end
return r
`;

/** HAS. ARGV: now idle maxAge grace tombstone. 1 when live and the bytes are there; touches nothing. */
export const HAS_LUA = `${PRELUDE}
if live() then return redis.call('EXISTS', KEYS[1]) end
return 0
`;

/**
 * QUARANTINE. ARGV: SHA-1 (hex) of the bytes the caller found corrupt. Deletes them only if they
 * are still those bytes (a concurrent re-put may have healed the key), and marks the handle
 * corrupt so every later get says so until a put stores good bytes again.
 */
export const QUARANTINE_LUA = `
local v = redis.call('GET', KEYS[1])
if v and redis.sha1hex(v) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('HSET', KEYS[2], 'state', 'corrupt') end
  return 1
end
return 0
`;
