-- sessions-cookie.lua: the cookie-keeping sessions run for wrk, the case a
-- browser produces and none of the published comparisons measured: clients
-- send their session cookie back, so requests read and write existing
-- sessions instead of creating one each.
--
-- wrk gives a script no per-connection hook, only one Lua state per thread,
-- so sessions are kept per thread: a thread with K connections (pass K as
-- the script argument: wrk ... -s sessions-cookie.lua <url> -- K) first sends
-- K requests without a cookie, one per connection since each connection's
-- first request leaves before any response arrives, and keeps the session
-- cookie of each response. Every later request carries one of those K
-- cookies in turn. So the server holds one session per connection, as with
-- K browsers; with -t equal to -c every connection keeps exactly its own.
-- If the app sets no cookie, requests go out without one and done() says so.

local threads = {}

function setup(thread)
   threads[#threads + 1] = thread
end

function init(args)
   per_thread = tonumber(args[1]) or 1
   fresh = 0        -- requests sent without a cookie to start a session
   uncookied = 0    -- later requests sent without one (no cookie was set)
   obtained = 0     -- session cookies kept
   cookied = {}     -- a prepared request string per session cookie
   turn = 0
   plain = wrk.format()
end

function request()
   if fresh < per_thread then
      fresh = fresh + 1
      return plain
   end
   if obtained == 0 then
      uncookied = uncookied + 1
      return plain
   end
   turn = turn % obtained + 1
   return cookied[turn]
end

function response(status, headers, body)
   if obtained >= per_thread then
      return
   end
   local set = headers["Set-Cookie"] or headers["set-cookie"]
   if set then
      local pair = set:match("^%s*([^;]+)")
      if pair then
         obtained = obtained + 1
         cookied[obtained] = wrk.format(nil, nil, { Cookie = pair })
      end
   end
end

function done(summary, latency, requests)
   local sessions, without = 0, 0
   for _, thread in ipairs(threads) do
      sessions = sessions + thread:get("obtained")
      without = without + thread:get("uncookied")
   end
   io.write(string.format("sessions-cookie.lua: %d sessions kept by the clients\n", sessions))
   if without > 0 then
      io.write(string.format("sessions-cookie.lua: WARNING: %d requests went without a cookie (the app set none)\n", without))
   end
end
