-- The wrk script of the TechEmpower comparisons.
--
-- Pipelining: when WRK_PIPELINE is a depth above 1, every connection sends
-- that many requests in one write and waits for as many responses, as
-- TechEmpower's toolset/wrk/pipeline.lua does for plaintext (depth 16).
-- `request` is only defined then, so that without pipelining wrk keeps
-- its static request.
--
-- Summary: done() prints one line "vireo-wrk: {json}" with the totals
-- and the latency distribution (microseconds), which the suite parses
-- instead of wrk's text report. Under pipelining a latency sample is the
-- time of a whole batch, as in wrk's report, and wrk's own percentiles
-- break: its coordinated-omission correction, with the interval of a
-- response rather than of a batch, adds samples below the histogram's
-- minimum, which percentile() counts but never visits, so high
-- percentiles come out as 0. The percentiles here are taken over the
-- samples percentile() can see: their share of the count is found by
-- bisection (the highest p that still gives a value), and p is scaled by
-- it. Without pipelining the share is all but 100% and nothing changes.

local depth = tonumber(os.getenv("WRK_PIPELINE") or "1") or 1

if depth > 1 then
  local batch

  init = function(args)
    local r = {}
    for i = 1, depth do
      r[i] = wrk.format()
    end
    batch = table.concat(r)
  end

  request = function()
    return batch
  end
end

-- visible returns the percentage of wrk's latency count that its
-- histogram walk can reach.
local function visible(latency)
  local lo, hi = 0, 100
  for _ = 1, 40 do
    local mid = (lo + hi) / 2
    if latency:percentile(mid) ~= 0 then lo = mid else hi = mid end
  end
  return lo
end

local function percentiles(latency, ps)
  local out = {}
  local share = 0
  if latency.max > 0 then share = visible(latency) / 100 end
  for i, p in ipairs(ps) do
    if share > 0 then out[i] = latency:percentile(p * share) else out[i] = 0 end
  end
  return out
end

done = function(summary, latency, requests)
  local e = summary.errors
  local p = percentiles(latency, {50, 75, 90, 99})
  io.write(string.format(
    'vireo-wrk: {"requests":%d,"duration_us":%d,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"mean":%.1f,"stdev":%.1f,"max":%d,"p50":%d,"p75":%d,"p90":%d,"p99":%d},' ..
    '"pipeline":%d}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency.stdev, latency.max,
    p[1], p[2], p[3], p[4],
    depth))
end
