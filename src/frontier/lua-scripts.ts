/**
 * The frontier's operations as Lua scripts: Redis runs each one atomically,
 * so no two workers can lease the same request, and a request's lease, its
 * slot's counters and the queue's size always change together. Every key of
 * one crawl starts with the same prefix (`seine:{<spider>}:`, a Redis
 * Cluster hash tag: the whole crawl lives on one node); the key layout is
 * documented in docs/distributed.md. Times come from Redis's own clock
 * (`TIME`), so workers on machines whose clocks differ agree on when a
 * lease expires.
 */

/** Shared helpers, prepended to every script. */
const PRELUDE = `
local K = ARGV[1]
local function nowms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function splitLease(info)
  local owner, slot, score = string.match(info, '^([^\\t]*)\\t([^\\t]*)\\t(.*)$')
  return owner, slot, score
end
-- A slot may be leased from at its ready time: the later of now and the end of its delay.
local function slotReady(slot, now)
  local nextAt = tonumber(redis.call('HGET', K .. 'slotnext', slot) or '0')
  if nextAt > now then return nextAt end
  return now
end
-- A leased request back to its slot's queue with its original score (a worker died or gave it back).
local function requeue(id, now)
  local info = redis.call('HGET', K .. 'lease', id)
  redis.call('ZREM', K .. 'leases', id)
  if not info then return 0 end
  local owner, slot, score = splitLease(info)
  redis.call('HDEL', K .. 'lease', id)
  if redis.call('HINCRBY', K .. 'active', slot, -1) <= 0 then redis.call('HDEL', K .. 'active', slot) end
  redis.call('ZADD', K .. 'q:' .. slot, score, id)
  redis.call('HINCRBY', K .. 'meta', 'queued', 1)
  -- LT adds the slot when it is missing and makes it ready sooner when it waits (full) longer than it must.
  redis.call('ZADD', K .. 'slots', 'LT', slotReady(slot, now), slot)
  return 1
end
`;

/**
 * PUSH prefix lifo entries…, each entry six arguments: fingerprint, slot,
 * priority, request JSON, dontFilter ('1'/'0'), Bloom bit offsets
 * (comma-separated; empty: the duplicate filter is the `seen` set).
 * Returns 1 per entry queued, 0 per duplicate.
 */
export const PUSH = `${PRELUDE}
local lifo = ARGV[2] == '1'
local now = nowms()
local out = {}
local i = 3
while i <= #ARGV do
  local fp, slot, prio, data, dontFilter, bits = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]), ARGV[i + 3], ARGV[i + 4], ARGV[i + 5]
  i = i + 6
  local fresh = 1
  if dontFilter ~= '1' then
    if bits == '' then
      fresh = redis.call('SADD', K .. 'seen', fp)
    else
      fresh = 0
      local offsets = {}
      for bit in string.gmatch(bits, '%d+') do
        offsets[#offsets + 1] = bit
        if fresh == 0 and redis.call('GETBIT', K .. 'bloom', bit) == 0 then fresh = 1 end
      end
      if fresh == 1 then
        for _, bit in ipairs(offsets) do redis.call('SETBIT', K .. 'bloom', bit, 1) end
        redis.call('HINCRBY', K .. 'meta', 'bloom_added', 1)
      end
    end
  end
  if fresh == 1 then
    local seq = redis.call('HINCRBY', K .. 'meta', 'seq', 1)
    -- Equal scores pop in the members' byte order: ascending numbers are FIFO, descending LIFO.
    local id
    if lifo then id = string.format('%015d', 999999999999999 - seq) else id = string.format('%015d', seq) end
    redis.call('HSET', K .. 'req', id, data)
    redis.call('ZADD', K .. 'q:' .. slot, -prio, id)
    redis.call('HINCRBY', K .. 'meta', 'queued', 1)
    redis.call('HINCRBY', K .. 'meta', 'pushed', 1)
    redis.call('ZADD', K .. 'slots', 'NX', slotReady(slot, now), slot)
  end
  out[#out + 1] = fresh
end
return out
`;

/**
 * LEASE prefix worker n leaseMs slotConcurrency delayMs delayFactor:
 * returns expired leases to the queue, then leases up to n requests to the
 * worker from the slots that may be fetched now (fewer than
 * slotConcurrency leased, delay since the last lease passed). Returns
 * [queued, leases, startState, startAlive, paused, nextReadyInMs, id, json, id, json, …].
 */
export const LEASE = `${PRELUDE}
local worker, n, leaseMs = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local conc, delay, factor = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local now = nowms()
redis.call('ZADD', K .. 'workers', now, worker)
local expired = redis.call('ZRANGEBYSCORE', K .. 'leases', '-inf', now, 'LIMIT', 0, 1000)
for _, id in ipairs(expired) do
  if requeue(id, now) == 1 then redis.call('HINCRBY', K .. 'meta', 'reclaimed', 1) end
end
local meta = redis.call('HMGET', K .. 'meta', 'paused', 'start_state', 'start_expiry')
local paused = meta[1] == '1'
local out = {}
local got = 0
if not paused and n > 0 then
  local ready = redis.call('ZRANGEBYSCORE', K .. 'slots', '-inf', now, 'LIMIT', 0, 2 * n + 100)
  for _, slot in ipairs(ready) do
    if got >= n then break end
    local q = K .. 'q:' .. slot
    local active = tonumber(redis.call('HGET', K .. 'active', slot) or '0')
    local slotDelay = math.max(delay, tonumber(redis.call('HGET', K .. 'slotdelay', slot) or '0'))
    local take = math.min(conc - active, n - got)
    if slotDelay > 0 then take = math.min(take, 1) end
    local taken = 0
    while taken < take do
      local popped = redis.call('ZPOPMIN', q)
      if #popped == 0 then break end
      local id, score = popped[1], popped[2]
      redis.call('ZADD', K .. 'leases', now + leaseMs, id)
      redis.call('HSET', K .. 'lease', id, worker .. '\\t' .. slot .. '\\t' .. score)
      redis.call('HINCRBY', K .. 'active', slot, 1)
      redis.call('HINCRBY', K .. 'meta', 'queued', -1)
      out[#out + 1] = id
      out[#out + 1] = redis.call('HGET', K .. 'req', id) or ''
      taken = taken + 1
      got = got + 1
    end
    if taken > 0 and slotDelay > 0 then redis.call('HSET', K .. 'slotnext', slot, now + math.floor(slotDelay * factor)) end
    if redis.call('EXISTS', q) == 0 then
      redis.call('ZREM', K .. 'slots', slot)
    elseif taken > 0 and slotDelay > 0 then
      redis.call('ZADD', K .. 'slots', slotReady(slot, now), slot)
    elseif active + taken >= conc then
      -- Full: looked at again when one of its leases ends (ACK), or in a second.
      redis.call('ZADD', K .. 'slots', now + 1000, slot)
    end
  end
end
local nextReady = -1
local first = redis.call('ZRANGE', K .. 'slots', 0, 0, 'WITHSCORES')
if #first == 2 then nextReady = math.max(0, tonumber(first[2]) - now) end
local startAlive = 0
if meta[2] == 'seeding' and tonumber(meta[3] or '0') > now then startAlive = 1 end
local head = {
  tonumber(redis.call('HGET', K .. 'meta', 'queued') or '0'),
  redis.call('ZCARD', K .. 'leases'),
  meta[2] or '',
  startAlive,
  paused and 1 or 0,
  nextReady,
}
for j = 1, #out do head[#head + 1] = out[j] end
return head
`;

/**
 * PAUSE_SLOT prefix slot ms: no worker leases from the slot for `ms` (a
 * 429/503's Retry-After seen by one worker holds for all). Its next lease
 * time moves to now + ms unless it is later already; every script that
 * puts the slot back in `slots` reads that time (slotReady).
 */
export const PAUSE_SLOT = `${PRELUDE}
local slot, ms = ARGV[2], tonumber(ARGV[3])
local untilAt = nowms() + ms
if untilAt > tonumber(redis.call('HGET', K .. 'slotnext', slot) or '0') then redis.call('HSET', K .. 'slotnext', slot, untilAt) end
redis.call('ZADD', K .. 'slots', 'XX', 'GT', untilAt, slot)
return 1
`;

/**
 * ACK prefix worker id outcome slotDelayMs items…: the request's callback
 * output is recorded; its lease ends, its items (JSON, when the crawl
 * shares them) go to the items list in the same step. 0 when the lease is
 * no longer this worker's (it expired and went back to the queue): nothing
 * is written, the request is someone else's now.
 */
export const ACK = `${PRELUDE}
local worker, id, outcome, slotDelay = ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local info = redis.call('HGET', K .. 'lease', id)
if not info then return 0 end
local owner, slot = splitLease(info)
if owner ~= worker then return 0 end
local now = nowms()
redis.call('ZREM', K .. 'leases', id)
redis.call('HDEL', K .. 'lease', id)
redis.call('HDEL', K .. 'req', id)
if redis.call('HINCRBY', K .. 'active', slot, -1) <= 0 then redis.call('HDEL', K .. 'active', slot) end
redis.call('HINCRBY', K .. 'meta', outcome, 1)
if slotDelay ~= '' then redis.call('HSET', K .. 'slotdelay', slot, slotDelay) end
redis.call('ZADD', K .. 'slots', 'XX', 'LT', slotReady(slot, now), slot)
if #ARGV > 5 then
  for j = 6, #ARGV do redis.call('RPUSH', K .. 'items', ARGV[j]) end
  redis.call('HINCRBY', K .. 'meta', 'items', #ARGV - 5)
end
return 1
`;

/**
 * RENEW prefix worker leaseMs statsJson ids…: the worker is alive; its
 * leases (and its claim on the start) last leaseMs more; its stats are
 * stored for the merged view. Returns the ids that are no longer its own.
 */
export const RENEW = `${PRELUDE}
local worker, leaseMs, stats = ARGV[2], tonumber(ARGV[3]), ARGV[4]
local now = nowms()
redis.call('ZADD', K .. 'workers', now, worker)
if stats ~= '' then redis.call('HSET', K .. 'stats', worker, stats) end
local start = redis.call('HMGET', K .. 'meta', 'start_state', 'start_owner')
if start[1] == 'seeding' and start[2] == worker then redis.call('HSET', K .. 'meta', 'start_expiry', now + leaseMs) end
local lost = {}
for j = 5, #ARGV do
  local id = ARGV[j]
  local info = redis.call('HGET', K .. 'lease', id)
  local owner = info and splitLease(info)
  if owner == worker then redis.call('ZADD', K .. 'leases', 'XX', now + leaseMs, id) else lost[#lost + 1] = id end
end
return lost
`;

/**
 * RELEASE prefix worker leaving ids…: gives leases back to the queue at
 * once (a worker told to stop); with leaving = '1' the worker also leaves
 * the worker list and gives up its claim on an unfinished start.
 */
export const RELEASE = `${PRELUDE}
local worker, leaving = ARGV[2], ARGV[3] == '1'
local now = nowms()
local released = 0
for j = 4, #ARGV do
  local info = redis.call('HGET', K .. 'lease', ARGV[j])
  if info and splitLease(info) == worker then released = released + requeue(ARGV[j], now) end
end
redis.call('HINCRBY', K .. 'meta', 'released', released)
if leaving then
  redis.call('ZREM', K .. 'workers', worker)
  local start = redis.call('HMGET', K .. 'meta', 'start_state', 'start_owner')
  if start[1] == 'seeding' and start[2] == worker then redis.call('HSET', K .. 'meta', 'start_expiry', 0) end
end
return released
`;

/**
 * CLAIM_START prefix worker leaseMs: who runs the spider's start. 'done'
 * (seeded by an earlier worker), 'busy' (another live worker is seeding),
 * or 'mine' with how many outputs an earlier, dead seeder recorded.
 */
export const CLAIM_START = `${PRELUDE}
local worker, leaseMs = ARGV[2], tonumber(ARGV[3])
local now = nowms()
redis.call('HINCRBY', K .. 'meta', 'workers_started', 1)
local m = redis.call('HMGET', K .. 'meta', 'start_state', 'start_owner', 'start_expiry', 'start_count')
local count = tonumber(m[4] or '0')
if m[1] == 'done' then return { 'done', count } end
if m[1] == 'seeding' and m[2] ~= worker and tonumber(m[3] or '0') > now then return { 'busy', count } end
redis.call('HSET', K .. 'meta', 'start_state', 'seeding', 'start_owner', worker, 'start_expiry', now + leaseMs)
if not m[1] then redis.call('HSET', K .. 'meta', 'created', now) end
return { 'mine', count }
`;

/** RECORD_START prefix worker count done: the seeder's progress through start() ('1': it has ended). */
export const RECORD_START = `${PRELUDE}
local worker, count, done = ARGV[2], ARGV[3], ARGV[4] == '1'
if redis.call('HGET', K .. 'meta', 'start_owner') ~= worker then return 0 end
redis.call('HSET', K .. 'meta', 'start_count', count)
if done then redis.call('HSET', K .. 'meta', 'start_state', 'done') end
return 1
`;

/**
 * STATUS prefix aliveMs: [meta as name/value pairs…] plus leases, seen,
 * items, workers alive (renewed within aliveMs), workers' stats JSON.
 */
export const STATUS = `${PRELUDE}
local aliveMs = tonumber(ARGV[2])
local now = nowms()
local seen = redis.call('SCARD', K .. 'seen')
return {
  redis.call('HGETALL', K .. 'meta'),
  redis.call('ZCARD', K .. 'leases'),
  seen,
  redis.call('LLEN', K .. 'items'),
  redis.call('ZRANGEBYSCORE', K .. 'workers', now - aliveMs, '+inf'),
  redis.call('HGETALL', K .. 'stats'),
  now,
}
`;
