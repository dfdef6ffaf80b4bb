-- GET /<code> with a code picked at random per request from BENCH_CODES: fixed 8-byte records (7-character
-- code + newline), read as one string so that even 1M codes load at once, before the clock matters.
dofile(os.getenv('BENCH_LUA_DIR') .. '/report.lua')

local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set('id', counter)
end

local codes, count, head, tail
function init(args)
  -- Each thread draws its own sequence: identical ones would warm the cache for each other. BENCH_SEED
  -- tells apart the wrk processes run side by side (one per instance), whose threads share ids.
  math.randomseed(os.time() * 1000 + (tonumber(os.getenv('BENCH_SEED')) or 0) * 100 + id)
  local file = assert(io.open(os.getenv('BENCH_CODES'), 'rb'))
  codes = file:read('*a')
  file:close()
  count = #codes / 8
  -- BENCH_UA / BENCH_LANG / BENCH_REFERER: requests as a browser sends them (a human click, a language
  -- to match, a referrer to record).
  local headers = {}
  if os.getenv('BENCH_UA') then headers['User-Agent'] = os.getenv('BENCH_UA') end
  if os.getenv('BENCH_LANG') then headers['Accept-Language'] = os.getenv('BENCH_LANG') end
  if os.getenv('BENCH_REFERER') then headers['Referer'] = os.getenv('BENCH_REFERER') end
  head, tail = wrk.format('GET', '/0000000', headers):match('^(GET /)0000000(.*)$')
end

function request()
  local at = math.random(count) * 8 - 7
  return head .. codes:sub(at, at + 6) .. tail
end
