-- wrk script: a mixed branan load, rotating over positions from a TSV file.
--
--   wrk -t2 -c32 -d30s -s deploy/load/mixed.lua http://127.0.0.1:18080 \
--       -- deploy/load/positions.tsv 20
--
-- Arguments after `--`: the positions file (variant<TAB>position<TAB>legal move),
-- and the analysis time limit in milliseconds (0: no /v1/analyze requests).
-- Each position gives a legal-moves request, a play request and, when enabled, an
-- analysis request; the variants list is asked now and then. Every request is one
-- the service must answer with 2xx, so any other status is a failure.

local requests = {}
local counter = 0
statuses = {} -- global: done() reads it from each thread
local threads = {}

local function json_string(s)
  return '"' .. s:gsub('\\', '\\\\'):gsub('"', '\\"') .. '"'
end

local function post(path, body)
  return wrk.format("POST", path, { ["Content-Type"] = "application/json" }, body)
end

function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end

function init(args)
  local file = args[1] or "deploy/load/positions.tsv"
  local analyze_ms = tonumber(args[2] or "0") or 0
  for line in io.lines(file) do
    if line:sub(1, 1) ~= "#" and line ~= "" then
      local variant, position, mv = line:match("^([^\t]+)\t([^\t]+)\t([^\t]+)$")
      if variant then
        local game = '"variant":' .. json_string(variant)
          .. ',"position":' .. json_string(position)
        table.insert(requests, post("/v1/moves", "{" .. game .. "}"))
        table.insert(requests, post("/v1/play", "{" .. game .. ',"move":' .. json_string(mv) .. "}"))
        if analyze_ms > 0 then
          table.insert(requests, post("/v1/analyze",
            "{" .. game .. ',"time_ms":' .. string.format("%d", analyze_ms) .. "}"))
        end
      end
    end
  end
  table.insert(requests, wrk.format("GET", "/v1/variants"))
  if #requests < 2 then
    error("no positions read from " .. file)
  end
  -- Each thread starts at a different place in the rotation.
  counter = (tonumber(id) or 0) * 7919
end

function request()
  counter = counter + 1
  return requests[(counter % #requests) + 1]
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, _requests)
  local e = summary.errors
  local socket = e.connect + e.read + e.write + e.timeout
  local by_status = {}
  for _, t in ipairs(threads) do
    local s = t:get("statuses")
    for code, n in pairs(s) do
      by_status[code] = (by_status[code] or 0) + n
    end
  end
  local non2xx = 0
  local codes = {}
  for code, n in pairs(by_status) do
    if code < 200 or code > 299 then
      non2xx = non2xx + n
    end
    table.insert(codes, string.format("%d:%d", code, n))
  end
  table.sort(codes)
  local seconds = summary.duration / 1e6
  io.write("---- load summary ----\n")
  io.write(string.format("requests completed: %d in %.1f s\n", summary.requests, seconds))
  io.write(string.format("failed:             %d (non-2xx %d; socket errors %d: connect %d, read %d, write %d, timeout %d)\n",
    non2xx + socket, non2xx, socket, e.connect, e.read, e.write, e.timeout))
  io.write(string.format("statuses:           %s\n", table.concat(codes, " ")))
  io.write(string.format("throughput:         %.1f requests/s\n", summary.requests / seconds))
  io.write(string.format("latency ms:         p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  max %.2f\n",
    latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency:percentile(99.9) / 1000, latency.max / 1000))
end
