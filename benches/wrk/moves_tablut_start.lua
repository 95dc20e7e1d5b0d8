-- wrk script: POST /v1/moves for the Tablut start (80 legal moves with captures).
-- wrk -t1 -c32 -d10s -s benches/wrk/moves_tablut_start.lua http://127.0.0.1:8080/v1/moves
-- (wrk prints "Non-2xx or 3xx responses: N" when any answer was not a success.)
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"variant": "tablut"}'
