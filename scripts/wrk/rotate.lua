-- Rotates through the request paths listed one per line in the file named by the first script
-- argument (each thread from its own starting point), counts every response that is not 2xx by
-- status, and prints one summary line "CRKB-WRK {json}" for scripts/loadtools.py to read.

local threads = {}

function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end

function init(args)
  paths = {}
  for line in io.lines(args[1]) do
    if line ~= "" then
      paths[#paths + 1] = line
    end
  end
  if #paths == 0 then
    error(args[1] .. ": no request paths")
  end
  bad = 0
  codes = {}
  -- threads start far apart (golden-ratio spacing: the thread count is not known here)
  step = math.floor(#paths * ((tid * 0.6180339887) % 1))
end

function request()
  step = step % #paths + 1
  return wrk.format("GET", paths[step])
end

function response(status, headers, body)
  if status < 200 or status > 299 then
    bad = bad + 1
    codes[status] = (codes[status] or 0) + 1
  end
end

function done(summary, latency, requests)
  local bad_total, counts, seen = 0, {}, ""
  for _, t in ipairs(threads) do
    bad_total = bad_total + t:get("bad")
    for status, n in pairs(t:get("codes")) do
      counts[status] = (counts[status] or 0) + n
    end
  end
  for status, n in pairs(counts) do
    seen = seen .. status .. "x" .. n .. " "
  end
  local e = summary.errors
  io.write(string.format(
    'CRKB-WRK {"requests": %d, "duration_us": %d, "bytes": %d, "non2xx": %d, "codes": "%s",'
      .. ' "connect": %d, "read": %d, "write": %d, "timeout": %d, "status": %d,'
      .. ' "p50_us": %d, "p99_us": %d, "max_us": %d}\n',
    summary.requests, summary.duration, summary.bytes, bad_total, seen,
    e.connect, e.read, e.write, e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), latency.max))
end
