-- POST /create rotating over the API keys in BENCH_KEYS; every URL is unique (run, thread, counter) and
-- points at the local target server BENCH_TARGET.
dofile(os.getenv('BENCH_LUA_DIR') .. '/report.lua')

local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set('id', counter)
end

local keys = {}
local sent = 0
local prefix
function init(args)
  for key in io.lines(os.getenv('BENCH_KEYS')) do
    keys[#keys + 1] = key
  end
  prefix = os.getenv('BENCH_TARGET') .. '/page/' .. os.getenv('BENCH_RUN') .. '-' .. id .. '-'
end

function request()
  sent = sent + 1
  local headers = { ['Content-Type'] = 'application/json', ['X-API-Key'] = keys[sent % #keys + 1] }
  return wrk.format('POST', '/create', headers, '{"url":"' .. prefix .. sent .. '"}')
end
