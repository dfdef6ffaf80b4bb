-- GET /<code> with Host: <host>, a record picked at random per request from BENCH_CODES: fixed 28-byte
-- records ("<7-character code> <19-character host>\n"), read as one string before the clock matters.
-- With BENCH_UNKNOWN_HOST set, every request names that host instead (one no domain is added for).
dofile(os.getenv('BENCH_LUA_DIR') .. '/report.lua')

local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set('id', counter)
end

local records, count, head, middle, tail, unknown
function init(args)
  math.randomseed(os.time() * 1000 + (tonumber(os.getenv('BENCH_SEED')) or 0) * 100 + id)
  local file = assert(io.open(os.getenv('BENCH_CODES'), 'rb'))
  records = file:read('*a')
  file:close()
  count = #records / 28
  unknown = os.getenv('BENCH_UNKNOWN_HOST')
  local headers = { Host = 'hhhhhhhhhhhhhhhhhhh' }
  if os.getenv('BENCH_UA') then headers['User-Agent'] = os.getenv('BENCH_UA') end
  local formatted = wrk.format('GET', '/0000000', headers)
  head, middle, tail = formatted:match('^(GET /)0000000(.-)hhhhhhhhhhhhhhhhhhh(.*)$')
end

function request()
  local at = math.random(count) * 28 - 27
  return head .. records:sub(at, at + 6) .. middle .. (unknown or records:sub(at + 8, at + 26)) .. tail
end
