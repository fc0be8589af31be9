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
-- instead of wrk's text report.

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

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'vireo-wrk: {"requests":%d,"duration_us":%d,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"mean":%.1f,"stdev":%.1f,"max":%d,"p50":%d,"p75":%d,"p90":%d,"p99":%d},' ..
    '"pipeline":%d}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency.stdev, latency.max,
    latency:percentile(50), latency:percentile(75), latency:percentile(90), latency:percentile(99),
    depth))
end
