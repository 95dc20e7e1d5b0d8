-- wrk script: POST /v1/play, d9-d8 from the Tablut start.
-- wrk -t1 -c32 -d10s -s benches/wrk/play_tablut_start.lua http://127.0.0.1:8080/v1/play
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"variant": "tablut", "move": "d9-d8"}'
