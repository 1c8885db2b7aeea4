-- wrk script: one line per second with the responses completed in it:
--   wrk-second <unix second> <responses>
-- Seconds without a response print nothing (the throughput cliff is the gap).
local second, count = 0, 0

function response(status, headers, body)
  local now = os.time()
  if now ~= second then
    if second ~= 0 then
      io.write(string.format("wrk-second %d %d\n", second, count))
      io.flush()
    end
    second, count = now, 0
  end
  count = count + 1
end
