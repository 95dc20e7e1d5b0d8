-- GET /v1/board.svg with a different query each time (size and an arrow vary), so
-- every request draws its picture: the cost of drawing, not of the picture cache.
local i = 0
local files = "abcdefghi"
request = function()
  i = i + 1
  local a = i % 81
  local b = math.floor(i / 81) % 81
  local from = files:sub(a % 9 + 1, a % 9 + 1) .. (math.floor(a / 9) + 1)
  local to = files:sub(b % 9 + 1, b % 9 + 1) .. (math.floor(b / 9) + 1)
  local size = 64 + math.floor(i / 6561) % 1984
  return wrk.format("GET", "/v1/board.svg?variant=tablut&moves=d9-d8,e7-d7&arrows=" .. from .. "-" .. to .. "&size=" .. size)
end
