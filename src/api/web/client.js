// branan client: every call a web page needs, as a plain ES module.
//
//   import { Branan } from "https://your-branan-host/client.js";
//   const api = new Branan("https://your-branan-host");
//   const { moves } = await api.moves({ variant: "brandubh" });
//
// Errors are thrown as BrananError, carrying the RFC 9457 problem document.

/**
 * @typedef {"attackers"|"defenders"} Side
 * @typedef {{over: boolean, winner: Side|null, reason: string|null}} Status
 * @typedef {{move: string, from: string, to: string, captures: string[]}} LegalMove
 * @typedef {{cp: number}|{win: number}} Score
 * @typedef {{move: string, score: Score, pv: string[]}} Line
 * @typedef {{variant: string, position?: string, moves?: string[]}} GameRequest
 * @typedef {GameRequest & {time_ms?: number, depth?: number, nodes?: number,
 *   multipv?: number, level?: number}} AnalyzeRequest
 * @typedef {{variant: string, position: string, to_move: Side, status: Status,
 *   moves: LegalMove[]}} MovesResponse
 * @typedef {{variant: string, move: string, captures: string[], position: string,
 *   to_move: Side, status: Status}} PlayResponse
 * @typedef {{variant: string, position: string, to_move: Side, status: Status,
 *   best_move: string|null, score: Score, pv: string[], depth: number, nodes: number,
 *   time_ms: number, nps: number, cached: boolean, lines?: Line[]}} AnalyzeResponse
 * @typedef {{depth: number, score: Score, pv: string[], nodes: number, nps: number,
 *   time_ms: number, lines?: Line[]}} Info
 * @typedef {{format: "otg"|"pgn", record: string, variant: string, rules_id: string,
 *   start: string, moves: string[]}} RecordResponse
 * @typedef {{id: string, name: string, board_size: number, start_position: string,
 *   escape: "corners"|"edges", escape_squares: string[], throne: string,
 *   restricted_squares: string[], hostile_squares: string[]}} Variant
 * @typedef {{type: string, title: string, status: number, detail?: string,
 *   field?: string, index?: number}} Problem
 * @typedef {{variant: string, position?: string, moves?: string[], last_move?: string,
 *   arrows?: string[], size?: number, flip?: boolean}} BoardRequest
 */

/** A refusal of the service, with its problem document. */
export class BrananError extends Error {
  /** @param {Problem} problem */
  constructor(problem) {
    super(problem.detail || problem.title || `HTTP ${problem.status}`);
    this.name = "BrananError";
    /** @type {Problem} */
    this.problem = problem;
    /** @type {number} */
    this.status = problem.status;
  }
}

/** Whether a refusal is about a request field the server does not know. */
function refusesField(err, field) {
  return err instanceof BrananError && err.status === 400 &&
    String(err.problem.detail || "").includes(field);
}

/** A client of one branan instance. */
export class Branan {
  /** @param {string} [base] the instance's address; "" for the page's own origin */
  constructor(base = "") {
    this.base = base.replace(/\/+$/, "");
    /** Set once the server refused `level`: later requests leave it out. */
    this.levelRefused = false;
    /** Set once the server answered that it has no stream route. */
    this.streamMissing = false;
  }

  /** @returns {Promise<any>} */
  async #request(method, path, body, signal) {
    const init = { method, headers: { accept: "application/json" }, signal };
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const res = await fetch(this.base + path, init);
    const text = await res.text();
    let data;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (!res.ok) {
      throw new BrananError(data && typeof data === "object" ? data
        : { type: "about:blank", title: res.statusText, status: res.status });
    }
    return data;
  }

  /** Every preset and its rules. @returns {Promise<Variant[]>} */
  async variants() {
    return (await this.#request("GET", "/v1/variants")).variants;
  }

  /** The position after a game and its legal moves. @param {GameRequest} game @returns {Promise<MovesResponse>} */
  moves(game) {
    return this.#request("POST", "/v1/moves", game);
  }

  /**
   * A game written as a game record (`format`: `otg` or `pgn`), or a record read
   * (`record`): its text, and the game it holds.
   * @param {GameRequest & {record?: string, format: string}} req @returns {Promise<RecordResponse>}
   */
  record(req) {
    return this.#request("POST", "/v1/record", req);
  }

  /** Plays one move after a game. @param {GameRequest & {move: string}} req @returns {Promise<PlayResponse>} */
  play(req) {
    return this.#request("POST", "/v1/play", req);
  }

  /** The request without `level` once the server has refused it. */
  #withLevel(req) {
    if (req.level === undefined || !this.levelRefused) return req;
    const { level: _ignored, ...rest } = req;
    return rest;
  }

  /**
   * The best move of a game. `level` is left out (and the request retried) when
   * the server does not know it.
   * @param {AnalyzeRequest} req @param {AbortSignal} [signal] @returns {Promise<AnalyzeResponse>}
   */
  async analyze(req, signal) {
    try {
      return await this.#request("POST", "/v1/analyze", this.#withLevel(req), signal);
    } catch (err) {
      if (req.level !== undefined && !this.levelRefused && refusesField(err, "level")) {
        this.levelRefused = true;
        return this.analyze(req, signal);
      }
      throw err;
    }
  }

  /**
   * Streams an analysis: `onInfo` for each completed iteration, then `onDone` with
   * the final answer (the body of `analyze`). A server without the stream route is
   * asked `analyze` instead (one `onDone`, no `onInfo`). Returns a function that
   * stops the stream (and the server's search).
   * @param {AnalyzeRequest} req
   * @param {{onInfo?: (info: Info) => void, onDone?: (res: AnalyzeResponse) => void,
   *   onError?: (err: Error) => void, onFallback?: () => void}} handlers
   * @returns {() => void}
   */
  stream(req, handlers) {
    const controller = new AbortController();
    const { onInfo = () => {}, onDone = () => {}, onError = () => {}, onFallback = () => {} } = handlers;
    const run = async () => {
      if (this.streamMissing) {
        onFallback();
        onDone(await this.analyze(req, controller.signal));
        return;
      }
      const sent = this.#withLevel(req);
      const res = await fetch(this.base + "/v1/analyze/stream?" + query(sent), {
        headers: { accept: "text/event-stream" },
        signal: controller.signal,
      });
      if (!res.ok) {
        const problem = await res.json().catch(() => ({ status: res.status, title: res.statusText }));
        const err = new BrananError(problem);
        if (res.status === 404 && problem.type === "/problems/not-found") {
          this.streamMissing = true;
          return run();
        }
        if (sent.level !== undefined && refusesField(err, "level")) {
          this.levelRefused = true;
          return run();
        }
        throw err;
      }
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value.replace(/\r\n?/g, "\n");
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = "message";
          const data = [];
          for (const line of block.split("\n")) {
            if (line.startsWith("event:")) event = line.slice(6).trim();
            else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
          }
          if (!data.length) continue;
          const body = JSON.parse(data.join("\n"));
          if (event === "info") onInfo(body);
          else if (event === "bestmove") onDone(body);
          else if (event === "problem" || event === "error") throw new BrananError(body);
        }
      }
    };
    run().catch((err) => {
      if (err && err.name === "AbortError") return;
      onError(err);
    });
    return () => controller.abort();
  }

  /** The address of a picture of a position (`GET /v1/board.svg`). @param {BoardRequest} req */
  boardUrl(req) {
    return this.base + "/v1/board.svg?" + query(req);
  }
}

/** A query string from a request; lists are comma-separated. */
function query(req) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(req)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) {
      if (v.length) q.set(k, v.join(","));
    } else {
      q.set(k, String(v));
    }
  }
  return q.toString();
}

/**
 * Reads a position string (`3t3/.../3t3 a 0`) into a board: `rows[r][f]` is `t`,
 * `T`, `K` or "" with row 0 the top rank, and the side to move.
 * @param {string} text
 * @returns {{size: number, rows: string[][], side: Side, counter: number}}
 */
export function parsePosition(text) {
  const [board, side = "a", counter = "0"] = text.trim().split(/\s+/);
  const rows = board.replace(/^\/|\/$/g, "").split("/").map((row) => {
    const cells = [];
    for (const m of row.matchAll(/(\d+)|([tTK])/g)) {
      if (m[1]) for (let i = 0; i < Number(m[1]); i++) cells.push("");
      else cells.push(m[2]);
    }
    return cells;
  });
  return { size: rows.length, rows, side: side === "d" ? "defenders" : "attackers", counter: Number(counter) || 0 };
}

/**
 * Writes a board back as a position string.
 * @param {string[][]} rows @param {Side} side @param {number} [counter]
 */
export function formatPosition(rows, side, counter = 0) {
  const text = rows.map((row) => {
    let out = "";
    let run = 0;
    for (const c of row) {
      if (c) {
        if (run) out += run;
        run = 0;
        out += c;
      } else run++;
    }
    return run ? out + run : out;
  }).join("/");
  return `${text} ${side === "defenders" ? "d" : "a"} ${counter}`;
}
