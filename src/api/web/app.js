// The page: play against the computer and analyse, on branan's public API only
// (every call goes through client.js). Each mode keeps its own game, in this
// browser's storage too, so that neither a tab change nor a reload loses one.

import { Branan, BrananError, parsePosition, formatPosition } from "./client.js";
import { DICTIONARIES, LANGUAGES } from "./i18n.js";

const api = new Branan("");
const $ = (id) => document.getElementById(id);
const CELL = 40;
const MARGIN = 20;
const STORE = "branan-games";
const SIDES = ["attackers", "defenders"];
const other = (side) => (side === "attackers" ? "defenders" : "attackers");

/**
 * A game: its rules, its start, and `history[i]`, the game after i plies:
 * `{move, captures, res}`. `res` (the API's answer for that position) is asked for
 * when the position is first shown, so loading a long game costs one request;
 * `captures` is null until the position before the move is known.
 */
function blankGame(variant, human = "attackers") {
  return { variant, start: variant.start_position, history: [], view: 0, human, thinking: false, gen: 0 };
}

const S = {
  mode: "play",
  lang: "en",
  /** @type {any[]} */ variants: [],
  /** @type {{play: any, analyse: any}} */ games: { play: null, analyse: null },
  selected: null,
  cursor: null,
  flip: false,
  editing: false,
  editPiece: "t",
  editRows: [],
  /** The square a refused set-up named, marked in the editor until it is changed. */
  faultSquare: null,
  stopStream: null,
  /** The analysis shown: the last info or answer of the stream, and the side to move. */
  analysis: null,
  analysisToMove: "attackers",
  infos: 0,
  /** Bumped by every navigation, so a late answer of an older one is dropped. */
  nav: 0,
  ready: false,
};

const G = () => S.games[S.mode];

// ---- text ---------------------------------------------------------------

function t(key, params = {}) {
  const dict = DICTIONARIES[S.lang] || DICTIONARIES.en;
  const counted = "n" in params ? `${key}#${params.n}` : null;
  let text = (counted && (dict[counted] ?? DICTIONARIES.en[counted])) ?? dict[key] ?? DICTIONARIES.en[key] ?? key;
  for (const [k, v] of Object.entries(params)) text = text.replaceAll(`{${k}}`, String(v));
  return text;
}

/** A sentence: the text with its first letter capitalised. */
function sentence(key, params) {
  const text = t(key, params);
  return text.charAt(0).toLocaleUpperCase(S.lang) + text.slice(1);
}

/** "a, b and c" in the page's language. */
function list(items) {
  if (items.length < 2) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${t("and")} ${items[items.length - 1]}`;
}

function chooseLanguage() {
  const saved = storage("get", "branan-lang");
  if (saved && DICTIONARIES[saved]) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const code = String(l).slice(0, 2).toLowerCase();
    if (DICTIONARIES[code]) return code;
  }
  return "en";
}

function storage(op, key, value) {
  try {
    return op === "get" ? localStorage.getItem(key) : localStorage.setItem(key, value);
  } catch {
    return null;
  }
}

function applyLanguage() {
  document.documentElement.lang = S.lang;
  document.title = t("title");
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
    el.title = t(el.dataset.i18nLabel);
  }
  for (const el of document.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
  fillSelects();
  render();
  if ($("rules-dialog").open) fillRules();
}

function variantName(v) {
  const key = `variant.${v.id}`;
  const text = t(key);
  return text === key ? v.name : text;
}

// ---- games ----------------------------------------------------------------

const movesUpTo = (g, i) => g.history.slice(1, i + 1).map((h) => h.move);
const lastIndex = (g) => g.history.length - 1;
const atEnd = (g) => g.view === lastIndex(g);
const current = () => G().history[G().view];

/** The side to move after `i` plies: sides alternate, no one passes. */
function sideAt(g, i) {
  const first = parsePosition(g.start).side;
  return i % 2 === 0 ? first : other(first);
}

/** Whether discarding `g` loses something: moves played, and not over. */
function inProgress(g) {
  if (!g || g.history.length < 2) return false;
  const end = g.history[lastIndex(g)].res;
  return !(end && end.status.over);
}

function canonicalMove(text) {
  const m = /^([a-m]\d{1,2})-?([a-m]\d{1,2})/.exec(text.trim());
  return m ? `${m[1]}-${m[2]}` : text.trim();
}

/** Learns the captures of the move after ply `i` from the legal moves there. */
function learnCaptures(g, i) {
  const h = g.history[i];
  const next = g.history[i + 1];
  if (!h || !h.res || !next || next.captures) return;
  const legal = h.res.moves.find((m) => m.move === next.move);
  if (legal) next.captures = legal.captures;
}

/** The API's answer for the position after `i` plies, asked for once. */
async function ensure(g, i) {
  const h = g.history[i];
  if (h.res) return h.res;
  if (!h.pending) {
    h.pending = api.moves({ variant: g.variant.id, position: g.start, moves: movesUpTo(g, i) })
      .then((res) => {
        h.res = res;
        learnCaptures(g, i);
        return res;
      })
      .finally(() => { h.pending = null; });
  }
  return h.pending;
}

/**
 * Replaces `g` by a game from `start` with `moves`, with one request. `captures`,
 * where known (a stored game), are the captures of each move.
 */
async function loadGame(g, variant, start, moves, view = null, captures = []) {
  const gen = ++g.gen;
  const canonical = moves.map(canonicalMove);
  const res = await api.moves({ variant: variant.id, position: start, moves: canonical });
  if (gen !== g.gen) return false;
  g.variant = variant;
  g.start = start;
  g.tags = [];
  g.thinking = false;
  g.history = [{ move: null, captures: [], res: canonical.length ? null : res }];
  canonical.forEach((move, i) => {
    const known = Array.isArray(captures[i]) ? captures[i].map(String) : null;
    g.history.push({ move, captures: known, res: i === canonical.length - 1 ? res : null });
  });
  g.view = lastIndex(g);
  if (view !== null && view >= 0 && view < lastIndex(g)) {
    await ensure(g, view);
    g.view = view;
  }
  save();
  return true;
}

function save() {
  const ser = (g) => g && g.history.length
    ? {
      variant: g.variant.id, start: g.start, moves: movesUpTo(g, lastIndex(g)),
      captures: g.history.slice(1).map((h) => h.captures), view: g.view, human: g.human,
    }
    : null;
  storage("set", STORE, JSON.stringify({
    mode: S.mode,
    play: ser(S.games.play),
    analyse: ser(S.games.analyse),
    settings: { time: $("time").value, level: $("level").value, atime: $("atime").value, multipv: $("multipv").value },
  }));
}

function variantById(id) {
  return S.variants.find((v) => v.id === id) || S.variants[0];
}

/** The games stored by an earlier visit, or new ones. */
async function restore() {
  let stored = null;
  try {
    stored = JSON.parse(storage("get", STORE) || "null");
  } catch {
    stored = null;
  }
  const settings = (stored && stored.settings) || {};
  for (const id of ["time", "level", "atime", "multipv"]) {
    if (settings[id] !== undefined && [...$(id).options].some((o) => o.value === String(settings[id]))) $(id).value = settings[id];
  }
  for (const mode of ["play", "analyse"]) {
    const s = stored && stored[mode];
    const variant = variantById(s && s.variant);
    const g = blankGame(variant, s && SIDES.includes(s.human) ? s.human : "attackers");
    S.games[mode] = g;
    try {
      if (s && typeof s.start === "string" && Array.isArray(s.moves)) {
        const captures = Array.isArray(s.captures) ? s.captures : [];
        await loadGame(g, variant, s.start, s.moves.map(String), Number(s.view), captures);
        continue;
      }
    } catch {
      // Stored by another release, or broken: a new game instead.
    }
    await loadGame(g, variant, variant.start_position, []);
  }
  S.mode = stored && stored.mode === "analyse" ? "analyse" : "play";
}

// ---- the board ----------------------------------------------------------------

function squareName(file, rank) {
  return String.fromCharCode(97 + file) + (rank + 1);
}

function squareXY(name, size) {
  const file = name.charCodeAt(0) - 97;
  const rank = Number(name.slice(1)) - 1;
  const col = S.flip ? size - 1 - file : file;
  const row = S.flip ? rank : size - 1 - rank;
  return [MARGIN + col * CELL, MARGIN + row * CELL];
}

/**
 * Shows a refusal in words: below the row of the button that caused it (`near`,
 * a button's id), where the user is looking, else at the top of the panel.
 */
function showError(err, near = null) {
  const el = $("error");
  const row = near && $(near) ? $(near).closest(".buttons") : null;
  (row || $("status-row")).after(el);
  if (err instanceof BrananError) {
    const key = `problem.${err.problem.type}`;
    const title = t(key) === key ? err.problem.title : t(key);
    // The detail names its field for callers of the API ("position: column
    // 13: ..."); beside a title that says what was wrong, once is enough.
    const field = err.problem.field;
    const detail = field && err.message.startsWith(`${field}: `)
      ? err.message.slice(field.length + 2) : err.message;
    el.textContent = `${title}: ${detail}`;
  } else if (err instanceof TypeError) {
    el.textContent = t("network");
  } else {
    el.textContent = String((err && err.message) || err);
  }
  el.hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

function render() {
  const g = G();
  if (!S.ready || !g || !g.history.length) return;
  const v = g.variant;
  const n = v.board_size;
  const side = n * CELL + 2 * MARGIN;
  const h = current();
  const board = S.editing ? { rows: S.editRows } : parsePosition(h.res.position);
  const targets = new Map();
  if (S.selected && !S.editing) {
    for (const m of h.res.moves) if (m.from === S.selected) targets.set(m.to, m);
  }
  const lastMove = !S.editing && h.move ? h.move.split("-") : [];
  const escapes = new Set(v.escape === "corners" ? v.escape_squares : []);
  const edges = new Set(v.escape === "edges" ? v.escape_squares : []);
  const parts = [];
  const head = (who) => `<marker id="ah-${who}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto"><path class="head ${who}" d="M0,0L10,5L0,10z"/></marker>`;
  parts.push(`<defs>${head("attackers")}${head("defenders")}</defs>`);
  parts.push(`<rect width="${side}" height="${side}" fill="#3b2a1a"/>`);
  for (let rank = 0; rank < n; rank++) {
    for (let file = 0; file < n; file++) {
      const sq = squareName(file, rank);
      const [x, y] = squareXY(sq, n);
      let cls = (file + rank) % 2 === 0 ? "sq dark" : "sq light";
      if (sq === v.throne) cls += " throne";
      if (escapes.has(sq)) cls += " escape";
      if (edges.has(sq)) cls += " edge";
      if (lastMove.includes(sq)) cls += " last";
      if (sq === S.selected) cls += " selected";
      if (targets.has(sq)) cls += " target";
      if (sq === S.cursor) cls += " cursor";
      if (S.editing && sq === S.faultSquare) cls += " fault";
      parts.push(`<rect class="${cls}" data-square="${sq}" x="${x}" y="${y}" width="${CELL}" height="${CELL}"/>`);
      if (sq === v.throne || escapes.has(sq)) {
        parts.push(`<path class="mark" d="M${x + 8},${y + 8}L${x + CELL - 8},${y + CELL - 8}M${x + CELL - 8},${y + 8}L${x + 8},${y + CELL - 8}"/>`);
      }
    }
  }
  for (let i = 0; i < n; i++) {
    const [fx] = squareXY(squareName(i, 0), n);
    const [, ry] = squareXY(squareName(0, i), n);
    parts.push(`<text class="coord" x="${fx + CELL / 2}" y="${side - MARGIN / 2 + 5}">${String.fromCharCode(97 + i)}</text>`);
    parts.push(`<text class="coord" x="${MARGIN / 2}" y="${ry + CELL / 2 + 5}">${i + 1}</text>`);
  }
  board.rows.forEach((row, r) => row.forEach((p, f) => {
    if (!p) return;
    const sq = squareName(f, n - 1 - r);
    const [x, y] = squareXY(sq, n);
    const cx = x + CELL / 2;
    const cy = y + CELL / 2;
    const cls = p === "t" ? "piece attacker" : p === "T" ? "piece defender" : "piece king";
    let el = `<g class="${cls}" data-piece="${p}" data-square="${sq}"><circle cx="${cx}" cy="${cy}" r="${p === "K" ? 16 : 14}"/>`;
    if (p === "K") el += `<path d="M${cx - 8},${cy}H${cx + 8}M${cx},${cy - 8}V${cy + 8}"/>`;
    parts.push(el + "</g>");
  }));
  for (const [to, m] of targets) {
    const [x, y] = squareXY(to, n);
    parts.push(`<circle class="dot${m.captures.length ? " capture" : ""}" cx="${x + CELL / 2}" cy="${y + CELL / 2}" r="${m.captures.length ? 9 : 6}"/>`);
  }
  if (S.mode === "analyse" && S.analysis && !S.editing) {
    const mover = S.analysisToMove;
    S.analysis.pv.slice(0, 3).forEach((mv, i) => {
      const [from, to] = mv.split("-");
      if (!from || !to) return;
      // Each side's arrows in its own colour, and a few pixels to its own side of
      // the line (below or right for the attackers), so that an answer along the
      // same rank or file stays apart from the move it answers.
      const who = i % 2 === 0 ? mover : other(mover);
      const shift = who === "attackers" ? 4 : -4;
      const [fx, fy] = squareXY(from, n).map((c) => c + CELL / 2);
      const [tx, ty] = squareXY(to, n).map((c) => c + CELL / 2);
      const [dx, dy] = fy === ty ? [0, shift] : [shift, 0];
      const [x1, y1, x2r, y2r] = [fx + dx, fy + dy, tx + dx, ty + dy];
      const len = Math.hypot(x2r - x1, y2r - y1) || 1;
      const x2 = x2r - ((x2r - x1) / len) * 8;
      const y2 = y2r - ((y2r - y1) / len) * 8;
      parts.push(`<line class="arrow ${who}" data-side="${who}" data-from="${from}" data-to="${to}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke-width="${7 - i * 2}" stroke-opacity="${0.85 - i * 0.2}" marker-end="url(#ah-${who})"/>`);
    });
  }
  const svg = $("board");
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.setAttribute("data-variant", v.id);
  svg.setAttribute("data-position", h.res.position);
  svg.setAttribute("aria-label", `${variantName(v)}: ${h.res.position}`);
  svg.innerHTML = parts.join("");
  renderStatus();
  renderMoveList();
  renderAnalysis();
  $("takeback").disabled = S.games.play.thinking || S.games.play.history.length < 2;
}

function renderStatus() {
  const g = G();
  const msg = $("message");
  const res = current().res;
  const st = res.status;
  msg.dataset.over = String(st.over);
  msg.dataset.winner = st.winner || "";
  msg.dataset.reason = st.reason || "";
  msg.classList.toggle("over", st.over && !S.editing);
  if (S.editing) {
    msg.textContent = t("setup_hint");
  } else if (st.over) {
    const who = st.winner ? t(`win.${st.winner}`) : t("draw");
    msg.textContent = `${who} ${t(`reason.${st.reason}`)}`;
  } else if (S.mode === "play" && atEnd(g)) {
    msg.textContent = g.thinking || res.to_move !== g.human ? t("thinking") : t("your_move", { side: t(`side.${g.human}`) });
  } else {
    msg.textContent = t("to_move", { side: t(`side.${res.to_move}`) });
  }
  $("board").dataset.toMove = res.to_move;
  $("board").dataset.thinking = String(S.mode === "play" && g.thinking);
}

/** Scrolls `list` (and only it) so that `item` is inside its box. */
function keepInside(list, item) {
  const box = list.getBoundingClientRect();
  const r = item.getBoundingClientRect();
  if (r.bottom > box.bottom) list.scrollTop += r.bottom - box.bottom;
  else if (r.top < box.top) list.scrollTop -= box.top - r.top;
  if (r.right > box.right) list.scrollLeft += r.right - box.right;
  else if (r.left < box.left) list.scrollLeft -= box.left - r.left;
}

function renderMoveList() {
  const g = G();
  const ol = $("movelist");
  const items = [];
  const firstSide = sideAt(g, 0);
  for (let i = 1; i < g.history.length; i++) {
    const h = g.history[i];
    const mover = sideAt(g, i - 1);
    const number = Math.floor((i - 1 + (firstSide === "defenders" ? 1 : 0)) / 2) + 1;
    if (mover === "attackers") items.push(`<li class="num">${number}.</li>`);
    else if (i === 1) items.push(`<li class="num">${number}.</li><li class="empty"></li>`);
    const cap = h.captures && h.captures.length ? "x" + h.captures.join("x") : "";
    const cur = i === g.view;
    items.push(`<li><button type="button" data-ply="${i}" class="${cur ? "current" : ""}" aria-current="${cur}">${h.move}${cap}</button></li>`);
  }
  ol.innerHTML = items.join("");
  ol.dataset.moves = movesUpTo(g, lastIndex(g)).join(",");
  ol.dataset.start = g.start;
  ol.dataset.view = String(g.view);
  const cur = ol.querySelector(".current");
  if (cur) keepInside(ol, cur);
  else ol.scrollTop = 0;
}

/**
 * What a score means, from an answer's `score` and `win_chance` (the side to
 * move's): the side favoured and its expected result, or who wins a forced game in
 * how many of the winner's moves. `attackers` is the attackers' expected result,
 * 0 to 1, for the bar.
 */
function meaning(score, winChance, toMove) {
  const attackers = toMove === "attackers" ? winChance : 1 - winChance;
  if ("win" in score) {
    const winner = score.win > 0 ? toMove : other(toMove);
    const moves = Math.ceil(Math.abs(score.win) / 2);
    return { attackers, favoured: winner, text: t(`wins_in.${winner}`, { n: moves }), short: `${moves}`, forced: true };
  }
  const pct = Math.round(attackers * 100);
  if (pct === 50) return { attackers, favoured: "", text: t("eval_even"), short: "50%", pct: 50 };
  const favoured = pct > 50 ? "attackers" : "defenders";
  const shown = favoured === "attackers" ? pct : 100 - pct;
  return { attackers, favoured, text: t("eval", { side: t(`side.${favoured}`), pct: shown }), short: `${shown}%`, pct: shown };
}

function setEval(text, favoured, attackers, raw, toMove) {
  $("eval-label").textContent = t(raw === null && attackers !== null ? "result" : "expected");
  const el = $("eval");
  el.textContent = text;
  el.className = `chip ${favoured}`;
  el.dataset.favoured = favoured;
  el.dataset.attackers = attackers === null ? "" : String(attackers);
  el.dataset.winChance = raw === null ? "" : String(raw);
  el.dataset.toMove = toMove || "";
  $("bar-fill").style.height = `${attackers === null ? 50 : Math.round(attackers * 1000) / 10}%`;
}

function renderAnalysis() {
  const box = $("analysis");
  box.dataset.infos = String(S.infos);
  const a = S.analysis;
  const res = current().res;
  const blank = () => {
    $("depth").textContent = "–";
    $("depth").dataset.depth = "0";
    $("nodes").textContent = "–";
    $("lines").innerHTML = "";
  };
  if (S.editing) {
    blank();
    setEval("–", "", null, null, null);
    return;
  }
  if (res.status.over) {
    // The bar at the result.
    blank();
    const w = res.status.winner;
    setEval(t(w ? `result.${w}` : "result.draw"), w || "", w === "attackers" ? 1 : w ? 0 : 0.5, null, res.to_move);
    return;
  }
  if (!a) {
    blank();
    setEval("…", "", null, null, null);
    return;
  }
  const toMove = S.analysisToMove;
  const m = meaning(a.score, a.win_chance, toMove);
  setEval(m.text, m.favoured, m.attackers, a.win_chance, toMove);
  $("eval").dataset.percent = m.pct === undefined ? "" : String(m.pct);
  $("depth").textContent = String(a.depth);
  $("depth").dataset.depth = String(a.depth);
  const compact = new Intl.NumberFormat(S.lang, { notation: "compact", maximumFractionDigits: 1 });
  $("nodes").textContent = `${compact.format(a.nodes)} (${compact.format(a.nps)}/s)`;
  const lines = a.lines && a.lines.length ? a.lines : [{ move: a.pv[0], score: a.score, proof: a.proof, win_chance: a.win_chance, pv: a.pv }];
  $("lines").innerHTML = lines.filter((l) => l.move).map((l) => {
    const lm = meaning(l.score, l.win_chance, toMove);
    const chip = lm.forced ? `#${lm.short}` : lm.short;
    const title = l.proof ? `${lm.text}. ${t(`proof.${l.proof}`)}` : lm.text;
    return `<li><span class="chip ${lm.favoured}" title="${title}" data-proof="${l.proof || ""}">${chip}</span>${l.pv.map((mv) => `<span class="mv">${mv}</span>`).join(" ")}</li>`;
  }).join("");
}

// ---- the rules in words -------------------------------------------------------

/** Who a hostility (or a passability) names, as a list in words. */
function whoOf(set, keys = ["attackers", "defenders", "king"]) {
  return keys.filter((k) => set && set[k]).map((k) => t(`who.${k}`));
}

/** Every rule of a rule set, in sentences, from its fields. */
function rulesInWords(v) {
  const out = [];
  const first = parsePosition(v.start_position).side;
  out.push(sentence("rule.board", { n: v.board_size, first: t(`who.${first}`) }));
  out.push(sentence("rule.move"));
  const speeds = v.speed_limits || {};
  for (const piece of ["attackers", "defenders", "king"]) {
    if (typeof speeds[piece] === "number") out.push(sentence(`rule.speed.${piece}`, { n: speeds[piece] }));
  }
  if (v.has_throne === false) {
    out.push(sentence("rule.no_throne"));
  } else {
    out.push(sentence("rule.throne", { square: v.throne }));
    if (v.throne_passable) {
      const who = whoOf(v.throne_passable);
      if (who.length === 0) out.push(sentence("rule.throne_closed"));
      else if (who.length < 3) out.push(sentence("rule.throne_passable", { who: list(who) }));
    }
    const stop = whoOf(v.throne_stoppable, ["attackers", "defenders"]);
    if (stop.length) out.push(sentence("rule.throne_stoppable", { who: list(stop) }));
    if (!v.throne_reentry) out.push(sentence("rule.no_reentry"));
  }
  out.push(sentence(`escape.${v.escape}`));
  if (v.escape === "corners") {
    if (v.corner_block > 1) out.push(sentence("rule.corner_block", { n: v.corner_block }));
    const stop = whoOf(v.corners_stoppable, ["attackers", "defenders"]);
    if (stop.length) out.push(sentence("rule.corners_stoppable", { who: list(stop) }));
  }
  out.push(sentence("rule.capture"));
  if (v.has_throne !== false) {
    const empty = whoOf(v.empty_throne_hostile);
    if (empty.length) out.push(sentence("rule.hostile_throne", { who: list(empty) }));
    // Hostile to the attackers while the king sits there is what an anvil king is
    // anyway: said only when it is something else.
    const occupied = whoOf(v.occupied_throne_hostile);
    const anvil = v.king_armed && v.king_armed_as !== "hammer";
    const implied = anvil && occupied.length === 1 && v.occupied_throne_hostile.attackers;
    if (occupied.length && !implied) out.push(sentence("rule.hostile_occupied", { who: list(occupied) }));
  }
  if (v.escape === "corners") {
    const corners = whoOf(v.corners_hostile);
    if (corners.length) out.push(sentence("rule.hostile_corners", { who: list(corners) }));
  }
  out.push(sentence(v.king_armed ? `king_armed_as.${v.king_armed_as || "hammer_and_anvil"}` : "rule.king_unarmed"));
  out.push(sentence(`king_capture.${v.king_capture}`));
  if (v.shieldwall) {
    out.push(sentence("rule.shieldwall"));
    if (v.shieldwall_corners !== false && v.escape === "corners") out.push(sentence("rule.shieldwall_corners"));
    if (v.shieldwall_flanking === false) out.push(sentence("rule.shieldwall_any_move"));
  }
  if (v.edge_forts) out.push(sentence("rule.edge_forts"));
  if (v.encirclement) out.push(sentence("rule.encirclement"));
  if (v.attackers_eliminated_wins) out.push(sentence("rule.attackers_eliminated"));
  out.push(sentence(`no_legal_moves.${v.no_legal_moves}`));
  const rep = v.repetition;
  out.push(sentence(`repetition_outcome.${rep.outcome}`, { times: t("times", { n: rep.occurrence }) }));
  if (v.no_capture_limit) out.push(sentence("rule.no_capture_limit", { n: v.no_capture_limit }));
  for (const [field, key] of [["attacker_forts", "rule.attacker_forts"], ["defender_forts", "rule.defender_forts"]]) {
    const forts = v[field];
    if (forts && forts.squares && forts.squares.length) out.push(sentence(key, { squares: forts.squares.join(", ") }));
  }
  return out;
}

function fillRules() {
  const v = G().variant;
  $("rules-title").textContent = t("rules_title", { name: variantName(v) });
  const about = `about.${v.id}`;
  $("rules-about").textContent = t(about) === about ? "" : t(about);
  $("rules-list").innerHTML = "";
  for (const text of rulesInWords(v)) {
    const li = document.createElement("li");
    li.textContent = text;
    $("rules-list").append(li);
  }
}

// ---- asking before a game is lost ------------------------------------------------

/** Resolves true when the player agrees (at once when nothing would be lost). */
function confirmDiscard(g, mode) {
  if (!inProgress(g)) return Promise.resolve(true);
  const dialog = $("confirm");
  $("confirm-text").textContent = t(`confirm.${mode}`);
  return new Promise((resolve) => {
    const done = (answer) => {
      $("confirm-yes").onclick = null;
      $("confirm-no").onclick = null;
      dialog.onclose = null;
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    $("confirm-yes").onclick = () => done(true);
    $("confirm-no").onclick = () => done(false);
    dialog.onclose = () => done(false);
    dialog.showModal();
    $("confirm-no").focus();
  });
}

// ---- playing -------------------------------------------------------------------

async function newPlayGame(variant, human) {
  const g = S.games.play;
  g.human = human;
  S.selected = null;
  if (await loadGame(g, variant, variant.start_position, [])) {
    clearError();
    render();
    await maybeComputer(g);
  }
}

async function playMove(g, legal) {
  const gen = g.gen;
  const base = movesUpTo(g, g.view);
  const res = await api.moves({ variant: g.variant.id, position: g.start, moves: [...base, legal.move] });
  if (gen !== g.gen) return;
  g.history = g.history.slice(0, g.view + 1);
  g.history.push({ move: legal.move, captures: legal.captures, res });
  g.view = lastIndex(g);
  if (g === G()) S.selected = null;
  save();
  render();
  if (g === S.games.play) await maybeComputer(g);
  else if (g === G()) startAnalysis();
}

/** The computer's move, when it is the computer's turn in the game played. */
async function maybeComputer(g) {
  const end = g.history[lastIndex(g)];
  if (!end.res || end.res.status.over || end.res.to_move === g.human || g.thinking) return;
  const gen = g.gen;
  g.thinking = true;
  render();
  try {
    const level = Number($("level").value);
    const req = { variant: g.variant.id, position: g.start, moves: movesUpTo(g, lastIndex(g)), time_ms: Number($("time").value) };
    if (level) req.level = level;
    const a = await api.analyze(req);
    if (gen !== g.gen) return;
    g.thinking = false;
    const legal = end.res.moves.find((m) => m.move === a.best_move);
    if (!legal) throw new Error(t("no_best_move"));
    g.view = lastIndex(g);
    await playMove(g, legal);
  } catch (err) {
    if (gen === g.gen) {
      g.thinking = false;
      render();
      showError(err);
    }
  }
}

async function takeback() {
  const g = S.games.play;
  if (g.thinking) return;
  const focused = document.activeElement === $("takeback");
  for (let i = lastIndex(g) - 1; i >= 0; i--) {
    if (sideAt(g, i) === g.human) {
      const gen = ++g.gen;
      await ensure(g, i);
      if (gen !== g.gen) return;
      g.history = g.history.slice(0, i + 1);
      g.view = i;
      S.selected = null;
      save();
      render();
      // Take back disabled at the start would leave the keyboard's focus nowhere:
      // it moves to the board (outlined only when the keyboard put it on the button).
      if (focused && $("takeback").disabled) $("board").focus({ preventScroll: true });
      return;
    }
  }
}

/** Shows the position after `view` plies of the current game. */
async function go(view) {
  if (S.editing) return;
  const g = G();
  const target = Math.max(0, Math.min(lastIndex(g), view));
  const nav = ++S.nav;
  try {
    await ensure(g, target);
  } catch (err) {
    showError(err);
    return;
  }
  if (nav !== S.nav || g !== G()) return;
  g.view = target;
  learnCaptures(g, target);
  S.selected = null;
  save();
  render();
  if (S.mode === "analyse") startAnalysis();
}

// ---- clicks and keys --------------------------------------------------------------

function onSquare(sq) {
  if (S.editing) return editSquare(sq);
  const g = G();
  const h = current();
  if (h.res.status.over) return;
  if (S.mode === "play" && (g.thinking || !atEnd(g) || h.res.to_move !== g.human)) return;
  if (S.selected) {
    const legal = h.res.moves.find((m) => m.from === S.selected && m.to === sq);
    if (legal) {
      playMove(g, legal).catch(showError);
      return;
    }
  }
  const movable = h.res.moves.some((m) => m.from === sq);
  S.selected = movable && S.selected !== sq ? sq : null;
  render();
}

function editSquare(sq) {
  const n = G().variant.board_size;
  const file = sq.charCodeAt(0) - 97;
  const row = n - Number(sq.slice(1));
  const here = S.editRows[row][file];
  const piece = S.editPiece === "" || here === S.editPiece ? "" : S.editPiece;
  if (piece === "K") S.editRows = S.editRows.map((r) => r.map((c) => (c === "K" ? "" : c)));
  S.editRows[row][file] = piece;
  S.faultSquare = null;
  render();
}

function squareFromEvent(ev) {
  const el = ev.target.closest("[data-square]");
  return el ? el.dataset.square : null;
}

function onBoardKey(ev) {
  const n = G().variant.board_size;
  const cur = S.cursor || S.selected || squareName(Math.floor(n / 2), Math.floor(n / 2));
  let file = cur.charCodeAt(0) - 97;
  let rank = Number(cur.slice(1)) - 1;
  const d = S.flip ? -1 : 1;
  switch (ev.key) {
    case "ArrowUp": rank += d; break;
    case "ArrowDown": rank -= d; break;
    case "ArrowLeft": file -= d; break;
    case "ArrowRight": file += d; break;
    case "Enter":
    case " ":
      ev.preventDefault();
      S.cursor = cur;
      onSquare(cur);
      return;
    case "Escape":
      S.selected = null;
      render();
      return;
    default:
      return;
  }
  ev.preventDefault();
  S.cursor = squareName(Math.max(0, Math.min(n - 1, file)), Math.max(0, Math.min(n - 1, rank)));
  render();
}

function onPageKey(ev) {
  if (ev.target.closest("input, textarea, select, #board, dialog")) return;
  const g = G();
  if (ev.key === "ArrowLeft") go(g.view - 1);
  else if (ev.key === "ArrowRight") go(g.view + 1);
  else if (ev.key === "Home") go(0);
  else if (ev.key === "End") go(lastIndex(g));
  else return;
  ev.preventDefault();
}

// ---- analysis ---------------------------------------------------------------------

function stopAnalysis() {
  if (S.stopStream) S.stopStream();
  S.stopStream = null;
  $("analysis").dataset.running = "false";
}

function startAnalysis() {
  stopAnalysis();
  S.analysis = null;
  S.infos = 0;
  if (S.mode !== "analyse" || S.editing) {
    render();
    return;
  }
  const g = G();
  const h = current();
  render();
  if (h.res.status.over) return;
  const gen = g.gen;
  const view = g.view;
  const toMove = h.res.to_move;
  const fresh = () => g === G() && gen === g.gen && view === g.view && S.mode === "analyse" && !S.editing;
  $("analysis").dataset.running = "true";
  $("analysis").dataset.streamed = "true";
  S.stopStream = api.stream(
    { variant: g.variant.id, position: g.start, moves: movesUpTo(g, view), time_ms: Number($("atime").value), multipv: Number($("multipv").value) },
    {
      onInfo: (info) => {
        if (!fresh()) return;
        S.infos++;
        S.analysis = info;
        S.analysisToMove = toMove;
        render();
      },
      onDone: (res) => {
        if (!fresh()) return;
        S.analysis = res;
        S.analysisToMove = toMove;
        $("analysis").dataset.running = "false";
        render();
      },
      onFallback: () => {
        $("analysis").dataset.streamed = "false";
      },
      onError: (err) => {
        if (!fresh()) return;
        $("analysis").dataset.running = "false";
        showError(err);
      },
    },
  );
}

async function loadAnalysis() {
  const g = S.games.analyse;
  const text = $("position-input").value.trim();
  const moves = $("moves-input").value.split(/[\s,;]+/).map((m) => m.replace(/^\d+\.+/, "")).filter(Boolean);
  const variant = variantById($("avariant").value);
  const start = text || variant.start_position;
  const same = variant === g.variant && start === g.start &&
    moves.map(canonicalMove).join(",") === movesUpTo(g, lastIndex(g)).join(",");
  if (!same && !(await confirmDiscard(g, "analyse"))) return;
  clearError();
  try {
    S.editing = false;
    $("setup").hidden = true;
    stopAnalysis();
    if (await loadGame(g, variant, start, moves)) startAnalysis();
  } catch (err) {
    openRefusedSetup(err, g, variant, start, moves);
    showError(err, "load");
  }
}

/**
 * A position of the board's own rules, refused for one square (a piece where
 * only the king may stand): opened in the set-up editor with that square
 * marked, so that it is mended where it is seen.
 */
function openRefusedSetup(err, g, variant, start, moves) {
  const square = err instanceof BrananError && err.problem.field === "position" && err.problem.square;
  if (!square || variant !== g.variant || moves.length) return;
  const { rows, side } = parsePosition(start);
  if (rows.length !== variant.board_size || rows.some((r) => r.length !== variant.board_size)) return;
  S.analysis = null;
  S.selected = null;
  S.editing = true;
  S.editRows = rows;
  S.faultSquare = square;
  $("setup-side").value = side;
  $("setup").hidden = false;
  render();
}

/** Loads a pasted game record (OpenTafl's or hnefatafl.org's) on the analysis board. */
async function loadRecord() {
  const g = S.games.analyse;
  const text = $("record-input").value;
  if (!text.trim()) return;
  clearError();
  try {
    const rec = await api.record({ record: text, format: $("record-format").value });
    const variant = S.variants.find((v) => v.id === rec.variant);
    if (!variant) {
      showError(new Error(t("record_custom_rules", { rules: rec.rules_id })), "record-load");
      return;
    }
    if (!(await confirmDiscard(g, "analyse"))) return;
    S.editing = false;
    $("setup").hidden = true;
    stopAnalysis();
    if (await loadGame(g, variant, rec.start, rec.moves)) {
      // Saved again, the game keeps the record's tags (who played, where, when).
      g.tags = (rec.tags || []).filter((tag) => /^[A-Za-z0-9_-]+$/.test(tag.name));
      fillAnalysisFields();
      startAnalysis();
    }
  } catch (err) {
    showError(err, "record-load");
  }
}

/** Writes the analysis board's game as a record: into the text box, and as a file. */
async function saveRecord() {
  const g = S.games.analyse;
  const format = $("record-format").value;
  clearError();
  try {
    const rec = await api.record({
      variant: g.variant.id, position: g.start, moves: movesUpTo(g, lastIndex(g)), format,
      tags: g.tags || [],
    });
    $("record-input").value = rec.record;
    const url = URL.createObjectURL(new Blob([rec.record], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = `branan-${g.variant.id}.${format}`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  } catch (err) {
    showError(err, "record-save");
  }
}

async function toggleSetup() {
  const g = S.games.analyse;
  if (S.editing) {
    const pos = formatPosition(S.editRows, $("setup-side").value, 0);
    S.editing = false;
    $("setup").hidden = true;
    $("position-input").value = pos;
    $("moves-input").value = "";
    try {
      if (await loadGame(g, g.variant, pos, [])) startAnalysis();
      S.faultSquare = null;
    } catch (err) {
      // A refused set-up stays in the editor, its square marked, so that the
      // user mends the position they were making rather than start again.
      S.editing = true;
      $("setup").hidden = false;
      S.faultSquare = (err instanceof BrananError && err.problem.square) || null;
      render();
      showError(err, "setup-toggle");
    }
    return;
  }
  if (!(await confirmDiscard(g, "analyse"))) return;
  stopAnalysis();
  S.analysis = null;
  S.editing = true;
  S.selected = null;
  S.faultSquare = null;
  S.editRows = parsePosition(current().res.position).rows;
  $("setup-side").value = current().res.to_move;
  $("setup").hidden = false;
  render();
}

async function copyPosition() {
  const text = current().res.position;
  $("position-input").value = text;
  try {
    await navigator.clipboard.writeText(text);
    $("copied").textContent = t("copied");
  } catch {
    $("position-input").select();
    $("copied").textContent = t("copy_select");
  }
}

/** Fills the analysis panel's fields with its game. */
function fillAnalysisFields() {
  const g = S.games.analyse;
  $("avariant").value = g.variant.id;
  $("position-input").value = g.start;
  $("moves-input").value = movesUpTo(g, lastIndex(g)).join(" ");
}

/** Switches to a mode; each keeps its game. */
function setMode(mode) {
  if (mode === S.mode) return;
  stopAnalysis();
  S.analysis = null;
  S.editing = false;
  S.selected = null;
  S.cursor = null;
  $("setup").hidden = true;
  S.mode = mode;
  for (const b of document.querySelectorAll("[role=tab]")) b.setAttribute("aria-selected", String(b.dataset.mode === mode));
  $("play-panel").hidden = mode !== "play";
  $("analyse-panel").hidden = mode !== "analyse";
  document.body.dataset.mode = mode;
  clearError();
  save();
  if (mode === "analyse") {
    fillAnalysisFields();
    startAnalysis();
  } else {
    render();
    maybeComputer(S.games.play);
  }
}

/** Copies the game played into the analysis board. */
async function analysePlayed() {
  const p = S.games.play;
  const a = S.games.analyse;
  const moves = movesUpTo(p, lastIndex(p));
  const same = a.variant === p.variant && a.start === p.start && movesUpTo(a, lastIndex(a)).join(",") === moves.join(",");
  if (!same) {
    if (!(await confirmDiscard(a, "analyse"))) return;
    try {
      await loadGame(a, p.variant, p.start, moves, p.view, p.history.slice(1).map((h) => h.captures));
    } catch (err) {
      showError(err);
      return;
    }
  }
  setMode("analyse");
}

function fillSelects() {
  const options = S.variants.map((v) => `<option value="${v.id}">${variantName(v)} (${v.board_size}×${v.board_size})</option>`).join("");
  for (const [id, mode] of [["variant", "play"], ["avariant", "analyse"]]) {
    $(id).innerHTML = options;
    if (S.games[mode]) $(id).value = S.games[mode].variant.id;
  }
  if (S.games.play) $("side-select").value = S.games.play.human;
  const lang = $("lang");
  lang.innerHTML = LANGUAGES.map(([code, name]) => `<option value="${code}">${name}</option>`).join("");
  lang.value = S.lang;
}

// ---- start ----------------------------------------------------------------------

async function main() {
  S.lang = chooseLanguage();
  applyLanguage();
  S.variants = await api.variants();
  await restore();
  S.ready = true;
  for (const b of document.querySelectorAll("[role=tab]")) b.setAttribute("aria-selected", String(b.dataset.mode === S.mode));
  $("play-panel").hidden = S.mode !== "play";
  $("analyse-panel").hidden = S.mode !== "analyse";
  document.body.dataset.mode = S.mode;
  applyLanguage();
  fillAnalysisFields();

  $("board").addEventListener("click", (ev) => {
    const sq = squareFromEvent(ev);
    if (sq) onSquare(sq);
  });
  // A click focuses the board for the keyboard, without the keyboard's outline.
  $("board").addEventListener("pointerdown", () => { S.cursor = null; });
  $("board").addEventListener("keydown", onBoardKey);
  document.addEventListener("keydown", onPageKey);
  // The move list turns from a row (a phone) to a column (beside the board): the
  // current move is kept in its box either way.
  window.addEventListener("resize", () => {
    const cur = $("movelist").querySelector(".current");
    if (cur) keepInside($("movelist"), cur);
  });
  $("variant").addEventListener("change", async () => {
    const g = S.games.play;
    const variant = variantById($("variant").value);
    if (variant === g.variant) return;
    if (!(await confirmDiscard(g, "play"))) {
      $("variant").value = g.variant.id;
      return;
    }
    newPlayGame(variant, g.human).catch(showError);
  });
  $("avariant").addEventListener("change", () => {
    $("position-input").value = "";
    $("moves-input").value = "";
  });
  $("lang").addEventListener("change", () => {
    S.lang = $("lang").value;
    storage("set", "branan-lang", S.lang);
    applyLanguage();
  });
  $("side-select").addEventListener("change", async () => {
    const g = S.games.play;
    const human = $("side-select").value;
    if (human === g.human) return;
    if (!(await confirmDiscard(g, "play"))) {
      $("side-select").value = g.human;
      return;
    }
    newPlayGame(g.variant, human).catch(showError);
  });
  $("new-game").addEventListener("click", async () => {
    const g = S.games.play;
    if (await confirmDiscard(g, "play")) newPlayGame(g.variant, g.human).catch(showError);
  });
  $("takeback").addEventListener("click", () => takeback().catch(showError));
  $("to-analysis").addEventListener("click", () => analysePlayed().catch(showError));
  $("flip").addEventListener("click", () => { S.flip = !S.flip; render(); });
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(G().view - 1));
  $("next").addEventListener("click", () => go(G().view + 1));
  $("last").addEventListener("click", () => go(lastIndex(G())));
  $("movelist").addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-ply]");
    if (b) go(Number(b.dataset.ply));
  });
  $("rules-open").addEventListener("click", () => {
    fillRules();
    $("rules-dialog").showModal();
  });
  for (const b of document.querySelectorAll("[role=tab]")) b.addEventListener("click", () => setMode(b.dataset.mode));
  $("load").addEventListener("click", () => loadAnalysis());
  $("record-load").addEventListener("click", () => loadRecord());
  $("record-save").addEventListener("click", () => saveRecord());
  $("analyse-start").addEventListener("click", startAnalysis);
  $("analyse-stop").addEventListener("click", stopAnalysis);
  $("multipv").addEventListener("change", () => { save(); startAnalysis(); });
  for (const id of ["time", "level", "atime"]) $(id).addEventListener("change", save);
  $("copy").addEventListener("click", copyPosition);
  $("setup-toggle").addEventListener("click", () => toggleSetup().catch(showError));
  $("setup-clear").addEventListener("click", () => {
    S.editRows = S.editRows.map((r) => r.map(() => ""));
    render();
  });
  for (const b of document.querySelectorAll("[data-edit-piece]")) {
    b.addEventListener("click", () => {
      S.editPiece = b.dataset.editPiece;
      for (const o of document.querySelectorAll("[data-edit-piece]")) o.setAttribute("aria-pressed", String(o === b));
    });
  }
  render();
  if (S.mode === "analyse") startAnalysis();
  else maybeComputer(S.games.play);
  document.body.dataset.ready = "true";
}

main().catch((err) => {
  showError(err);
  document.body.dataset.ready = "error";
});
