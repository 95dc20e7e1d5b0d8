#!/usr/bin/env python3
"""Malformed, hostile and oversized requests of many kinds, sent on raw sockets to a
running branan; each must be answered with a status below 500 (or the connection
closed), and the server must still answer /healthz afterwards.

  scripts/hostile.py http://127.0.0.1:8080

Prints one line per request that broke the rule and a summary; exits 1 if any did.
"""

import json
import socket
import sys
import urllib.parse

JSON = "application/json"


def send(host, port, raw, timeout=15.0):
    s = socket.create_connection((host, port), timeout=timeout)
    try:
        s.sendall(raw)
        data = b""
        while True:
            try:
                chunk = s.recv(65536)
            except (socket.timeout, ConnectionResetError):
                break
            if not chunk:
                break
            data += chunk
            if b"\r\n\r\n" in data:
                head, _, body = data.partition(b"\r\n\r\n")
                length = None
                for line in head.split(b"\r\n")[1:]:
                    k, _, v = line.partition(b":")
                    if k.strip().lower() == b"content-length":
                        length = int(v.strip())
                if length is not None and len(body) >= length:
                    break
        return data
    finally:
        s.close()


def request(method, path, body=None, ctype=JSON, extra=b""):
    if isinstance(body, str):
        body = body.encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n".encode()
    if body is not None:
        if ctype:
            head += f"Content-Type: {ctype}\r\n".encode()
        head += f"Content-Length: {len(body)}\r\n".encode()
    return head + extra + b"\r\n" + (body or b"")


def cases():
    deep = "[" * 30000 + "]" * 30000
    yield "deep JSON nesting", request("POST", "/v1/moves", '{"variant":"brandubh","moves":' + deep + "}")
    yield "deep object nesting", request("POST", "/v1/analyze", '{"variant":' + '{"a":' * 20000 + "1" + "}" * 20000 + "}")
    for v in ["1e400", "-1", "1.5", '"1000"', "18446744073709551616", "null", "true", "[]"]:
        yield f"time_ms {v}", request("POST", "/v1/analyze", f'{{"variant":"brandubh","time_ms":{v}}}')
        yield f"depth {v}", request("POST", "/v1/analyze", f'{{"variant":"brandubh","depth":{v}}}')
        yield f"multipv {v}", request("POST", "/v1/analyze", f'{{"variant":"brandubh","depth":1,"multipv":{v}}}')
    yield "60 KB position", request("POST", "/v1/moves", json.dumps({"variant": "tawlbwrdd", "position": "t" * 60000}))
    yield "60 KB move", request("POST", "/v1/play", json.dumps({"variant": "tawlbwrdd", "move": "a" * 60000}))
    yield "1000 long moves", request("POST", "/v1/moves", json.dumps({"variant": "tawlbwrdd", "moves": ["k11-k1x" + "a1x" * 15] * 1000}))
    yield "invalid UTF-8 body", request("POST", "/v1/moves", b'{"variant":"\xff\xfe"}')
    yield "NUL in strings", request("POST", "/v1/moves", '{"variant":"brandubh","position":"3t3\\u0000/3t3 a 0"}')
    yield "lone surrogate", request("POST", "/v1/moves", '{"variant":"\\ud800"}')
    yield "duplicate keys", request("POST", "/v1/moves", '{"variant":"brandubh","variant":"tablut"}')
    yield "text/plain", request("POST", "/v1/moves", '{"variant":"brandubh"}', ctype="text/plain")
    yield "no content type", request("POST", "/v1/moves", '{"variant":"brandubh"}', ctype=None)
    yield "latin1 charset", request("POST", "/v1/moves", '{"variant":"brandubh"}', ctype="application/json; charset=latin1")
    yield "form body", request("POST", "/v1/play", "variant=brandubh&move=d7-c7", ctype="application/x-www-form-urlencoded")
    yield "empty body", request("POST", "/v1/analyze", "")
    yield "JSON array body", request("POST", "/v1/analyze/batch", "[]")
    yield "batch items not objects", request("POST", "/v1/analyze/batch", '{"items":[1,"x",null,[],{"variant":"chess"}]}')
    yield "batch NDJSON bad items", request("POST", "/v1/analyze/batch", '{"items":[1,{"variant":"brandubh","depth":1}]}', extra=b"Accept: application/x-ndjson\r\n")
    yield "batch 10000 items", request("POST", "/v1/analyze/batch", json.dumps({"items": [{}] * 10000}))
    yield "two Content-Length", b"POST /v1/moves HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 5\r\nContent-Length: 22\r\n\r\n" + b'{"variant":"brandubh"}'
    yield "CL and TE", b"POST /v1/moves HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    yield "bad chunk size", b"POST /v1/moves HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"
    yield "huge chunk size", b"POST /v1/moves HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\n{}\r\n0\r\n\r\n"
    yield "negative Content-Length", b"POST /v1/moves HTTP/1.1\r\nHost: t\r\nContent-Length: -1\r\n\r\n"
    yield "120 headers", b"GET /healthz HTTP/1.1\r\nHost: t\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(120)) + b"\r\n"
    yield "40 KB header", b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: " + b"a" * 40000 + b"\r\n\r\n"
    yield "HTTP/1.0", b"GET /v1/variants HTTP/1.0\r\n\r\n"
    yield "HTTP/2 preface on h1", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
    yield "absolute URI", b"GET http://evil.example/v1/variants HTTP/1.1\r\nHost: t\r\n\r\n"
    yield "garbage", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 100
    for m in ["PUT", "DELETE", "PATCH", "TRACE", "OPTIONS", "HEAD", "FOO"]:
        yield f"{m} /v1/moves", request(m, "/v1/moves")
    yield "OPTIONS preflight", b"OPTIONS /v1/analyze HTTP/1.1\r\nHost: t\r\nOrigin: http://a.example\r\nAccess-Control-Request-Method: POST\r\n\r\n"
    for path in ["/v1/variants/" + "x" * 10000, "/v1/variants/%ZZ", "/v1/variants/..%2F..%2Fetc%2Fpasswd",
                 "/v1/variants/%00", "/v1/variants/%F0%9F%A6%80", "//v1//variants", "/v1/moves?variant=brandubh&variant=tablut",
                 "/v1/moves?variant=brandubh&moves=%ZZ", "/v1/moves?variant=brandubh&moves=" + ",".join(["d7-c7"] * 1001),
                 "/v1/moves?variant=brandubh&position=" + urllib.parse.quote("t" * 20000),
                 "/v1/moves?" + "&".join(f"x{i}=1" for i in range(2000)), "/swagger-ui/../../etc/passwd", "/metrics?x=1",
                 "/openapi.json/x", "/v1/moves?variant=brandubh&moves=,,,,"]:
        yield f"GET {path[:60]}", request("GET", path)


def main():
    url = urllib.parse.urlsplit(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080")
    host, port = url.hostname, url.port or 80
    bad = 0
    n = 0
    for name, raw in cases():
        n += 1
        res = send(host, port, raw)
        status = res[9:12].decode(errors="replace") if res.startswith(b"HTTP/1.") else "closed"
        if status != "closed" and not status.isdigit():
            status = "?" + status
        if status.isdigit() and int(status) >= 500:
            bad += 1
            print(f"BAD {status}: {name}: {res[:300]!r}")
        else:
            print(f"ok  {status}: {name}")
    health = send(host, port, request("GET", "/healthz"))
    alive = health.startswith(b"HTTP/1.1 200")
    print(f"\n{n} hostile requests, {bad} answered 5xx; /healthz afterwards: {'200' if alive else health[:100]!r}")
    sys.exit(1 if bad or not alive else 0)


if __name__ == "__main__":
    main()
