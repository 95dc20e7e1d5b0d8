#!/usr/bin/env python3
"""A computer player for a local hnefatafl.org server whose moves come from the
crate's own engine (`hnefatafl-text-protocol`, asked over its text protocol for
each move). Used by hnefatafl-check.sh to play whole games against `branan bot`.

    hnefatafl_opponent.py create USER PASSWORD       # make an account, then leave
    hnefatafl_opponent.py play USER PASSWORD OFFERER GAMES RESULTS_FILE

`play` logs in, joins GAMES offers made by OFFERER one after another, answers
each of its moves with the crate engine's move, and writes one JSON line per
finished game to RESULTS_FILE.
"""

import json
import os
import socket
import subprocess
import sys
import time

VERSION_ID = os.environ.get("HNEFATAFL_VERSION_ID", "32d9a140")
HOST = os.environ.get("HNEFATAFL_HOST", "localhost")
PORT = int(os.environ.get("HNEFATAFL_PORT", "49152"))
ENGINE = os.environ.get("HNEFATAFL_ENGINE", "hnefatafl-text-protocol")
# `protocol`: each move from the engine's text-protocol `generate_move` (its
# basic AI at depth 4). `basic:DEPTH` or `monte-carlo:SECONDS`: the engine runs
# as an HTP client (`--host --ai`) of a driver this script serves, in a network
# namespace of its own (the engine's client always connects to port 49152, the
# server's port), which needs root.
AI = os.environ.get("HNEFATAFL_AI", "protocol")


def log(text):
    print(f"opponent: {text}", file=sys.stderr, flush=True)


class Server:
    def __init__(self):
        self.sock = socket.create_connection((HOST, PORT), timeout=600)
        self.file = self.sock.makefile("rb")

    def send(self, line):
        if not line.startswith(VERSION_ID):
            log(f"-> {line}")
        self.sock.sendall((line + "\n").encode())

    def receive(self):
        raw = self.file.readline()
        if not raw:
            raise EOFError("the server closed the connection")
        return raw.decode("utf-8", "replace").rstrip("\n")


def first_side(size):
    return "defender" if size == 7 else "attacker"


def engine_move(size, moves):
    """The crate engine's move after `moves` (a game record's moves)."""
    side = first_side(size)
    lines = [f"board_size {size}"]
    for move in moves:
        if move == "---":
            break
        frm, to = move.split("x")[0].split("-")
        lines.append(f"play {side} {frm} {to}")
        side = "defender" if side == "attacker" else "attacker"
    lines += ["generate_move", "quit"]
    out = subprocess.run(
        [ENGINE], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=600
    ).stdout
    for line in out.splitlines():
        if line.startswith("= play "):
            words = line[2:].split(",")[0].split()
            return words  # ["play", ROLE, FROM, TO]
    raise RuntimeError(f"the engine gave no move: {out[-500:]!r}")


class HostEngine:
    """The crate engine as an HTP client of this script, one process a game."""

    listener = None

    @classmethod
    def setup(cls):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(0x40000000) != 0:  # CLONE_NEWNET
            raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNET) (run as root)")
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
        cls.listener = socket.create_server(("127.0.0.1", 49152))

    def __init__(self, size):
        name, _, value = AI.partition(":")
        flag = "--depth" if name == "basic" else "--seconds"
        args = [ENGINE, "--host", "127.0.0.1", "--ai", name] + ([flag, value] if value else [])
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.conn, _ = self.listener.accept()
        self.file = self.conn.makefile("rb")
        self.sent = 0
        self.conn.sendall(f"board_size {size}\n".encode())

    def move(self, size, moves):
        side = first_side(size)
        for i, move in enumerate(moves):
            if move == "---":
                break
            if i >= self.sent:
                frm, to = move.split("x")[0].split("-")
                self.conn.sendall(f"play {side} {frm} {to}\n".encode())
            side = "defender" if side == "attacker" else "attacker"
        self.conn.sendall(b"generate_move\n")
        line = self.file.readline().decode().split()
        if len(line) != 4 or line[0] != "play":
            raise RuntimeError(f"the engine gave no move: {line!r}")
        self.sent = len(moves) + 1
        return line

    def close(self):
        self.conn.close()
        self.process.kill()


def create(user, password):
    s = Server()
    s.send(f"{VERSION_ID} create_account {user} {password}")
    answer = s.receive()
    log(f"create_account {user}: {answer}")
    s.sock.close()
    return answer.startswith("= login")


def play(user, password, offerer, games, results_file):
    s = Server()
    s.send(f"{VERSION_ID} login {user} {password}")
    while True:
        line = s.receive()
        if line.startswith("= login"):
            break
        if line.startswith("? login"):
            raise RuntimeError(line)
    if AI != "protocol":
        HostEngine.setup()
    engines = {}
    log(f"logged in as {user}")
    finished = 0
    joined = None
    started = {}
    # The offerer's open offers (id -> game), and the side it played last.
    offers = {}
    last_side = None
    plies = {}
    while finished < games:
        line = s.receive()
        words = line.split()
        if line.startswith("= games_updated"):
            update = json.loads(line.split(" ", 2)[2])
            changed = [g for (_, _, g) in update.get("created", [])]
            changed += list(update.get("updated", {}).values())
            for g in changed:
                mine = g.get("attacker") == offerer or g.get("defender") == offerer
                free = g.get("attacker") is None or g.get("defender") is None
                if mine and free and not g.get("challenge_accepted") and g.get("challenger") is None:
                    offers[g["id"]] = g
                else:
                    offers.pop(g["id"], None)
            for gone in update.get("removed", []):
                offers.pop(gone, None)
        if joined is None and offers:
            # Take turns: an offer where the offerer plays the other side than last.
            def side(g):
                return "attacker" if g.get("attacker") == offerer else "defender"
            choice = sorted(offers.values(), key=lambda g: (side(g) == last_side, g["id"]))[0]
            joined = choice["id"]
            last_side = side(choice)
            offers.pop(joined)
            s.send(f"join_game_pending {joined}")
        if line.startswith("= games_updated"):
            pass
        elif len(words) >= 3 and words[0] == "game" and words[2] == "play":
            plies[words[1]] = plies.get(words[1], 0) + 1
        elif len(words) >= 4 and words[0] == "game" and words[2] == "generate_move":
            s.send(f"resume_game_json {words[1]}")
        elif line.startswith("= resume_game_json"):
            g = json.loads(line.split(" ", 2)[2])
            moves = g["moves"].split()
            started.setdefault(g["id"], (time.time(), g))
            started[g["id"]] = (started[g["id"]][0], g)
            if AI == "protocol":
                move = engine_move(g["dim"], moves)
            else:
                if g["id"] not in engines:
                    engines[g["id"]] = HostEngine(g["dim"])
                move = engines[g["id"]].move(g["dim"], moves)
            s.send(f"game {g['id']} {' '.join(move)}")
            plies[str(g["id"])] = plies.get(str(g["id"]), 0) + 1
        elif line.startswith("= game_over"):
            game_id, result = int(words[2]), words[3]
            if game_id in engines:
                engines.pop(game_id).close()
            began, g = started.get(game_id, (time.time(), {}))
            record = {
                "game": game_id,
                "result": result,
                "attackers": g.get("attackers"),
                "defenders": g.get("defenders"),
                "board": g.get("dim"),
                "plies": plies.get(str(game_id), 0),
                "seconds": round(time.time() - began),
            }
            log(f"game over: {record}")
            with open(results_file, "a") as f:
                f.write(json.dumps(record) + "\n")
            finished += 1
            joined = None
        elif line.startswith("? "):
            log(f"<- {line}")


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "create":
        sys.exit(0 if create(sys.argv[2], sys.argv[3]) else 1)
    if len(sys.argv) == 7 and sys.argv[1] == "play":
        play(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6])
        return
    print(__doc__, file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    main()
