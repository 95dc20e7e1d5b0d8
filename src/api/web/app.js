// The page: play against the computer and analyse, on branan's public API only
// (every call goes through client.js).

import { Branan, BrananError, parsePosition, formatPosition } from "./client.js";
import { DICTIONARIES, LANGUAGES } from "./i18n.js";

const api = new Branan("");
const $ = (id) => document.getElementById(id);
const CELL = 40;
const MARGIN = 20;

const S = {
  mode: "play",
  lang: "en",
  /** @type {any[]} */ variants: [],
  /** @type {any} */ variant: null,
  start: "",
  /** history[i]: the game after i plies: {move, captures, res} */
  history: [],
  view: 0,
  selected: null,
  cursor: null,
  flip: false,
  human: "attackers",
  thinking: false,
  /** Bumped by every new game or load, so a late answer of an old one is dropped. */
  generation: 0,
  editing: false,
  editPiece: "t",
  editRows: [],
  editSide: "attackers",
  stopStream: null,
  analysis: null,
  infos: 0,
};

// ---- text ---------------------------------------------------------------

function t(key, params = {}) {
  const dict = DICTIONARIES[S.lang] || DICTIONARIES.en;
  let text = dict[key] ?? DICTIONARIES.en[key] ?? key;
  for (const [k, v] of Object.entries(params)) text = text.replaceAll(`{${k}}`, String(v));
  return text;
}

function chooseLanguage() {
  const saved = safeStorage("get", "branan-lang");
  if (saved && DICTIONARIES[saved]) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const code = String(l).slice(0, 2).toLowerCase();
    if (DICTIONARIES[code]) return code;
  }
  return "en";
}

function safeStorage(op, key, value) {
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
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
  fillVariants();
  render();
}

// ---- helpers --------------------------------------------------------------

const current = () => S.history[S.view];
const last = () => S.history[S.history.length - 1];
const movesUpTo = (i) => S.history.slice(1, i + 1).map((h) => h.move);
const atEnd = () => S.view === S.history.length - 1;

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

function showError(err) {
  const el = $("error");
  el.textContent = err instanceof BrananError ? `${err.problem.title}: ${err.message}` : String(err.message || err);
  el.hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

// ---- the board ----------------------------------------------------------------

function render() {
  if (!S.variant || !S.history.length) return;
  const v = S.variant;
  const n = v.board_size;
  const side = n * CELL + 2 * MARGIN;
  const h = current();
  const board = S.editing
    ? { rows: S.editRows }
    : parsePosition(h.res.position);
  const targets = new Map();
  if (S.selected && !S.editing) {
    for (const m of h.res.moves) if (m.from === S.selected) targets.set(m.to, m);
  }
  const lastMove = !S.editing && h.move ? [h.move.slice(0, h.move.indexOf("-")), h.move.slice(h.move.indexOf("-") + 1)] : [];
  const escapes = new Set(v.escape === "corners" ? v.escape_squares : []);
  const edges = new Set(v.escape === "edges" ? v.escape_squares : []);
  const parts = [];
  parts.push(`<defs><marker id="ah" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto"><path d="M0,0L10,5L0,10z" fill="#1565c0"/></marker></defs>`);
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
    let g = `<g class="${cls}" data-piece="${p}" data-square="${sq}"><circle cx="${cx}" cy="${cy}" r="${p === "K" ? 16 : 14}"/>`;
    if (p === "K") g += `<path d="M${cx - 8},${cy}H${cx + 8}M${cx},${cy - 8}V${cy + 8}"/>`;
    parts.push(g + "</g>");
  }));
  for (const [to, m] of targets) {
    const [x, y] = squareXY(to, n);
    parts.push(`<circle class="dot${m.captures.length ? " capture" : ""}" cx="${x + CELL / 2}" cy="${y + CELL / 2}" r="${m.captures.length ? 9 : 6}"/>`);
  }
  if (S.mode === "analyse" && S.analysis && !S.editing) {
    S.analysis.pv.slice(0, 3).forEach((mv, i) => {
      const [from, to] = mv.split("-");
      if (!from || !to) return;
      const [x1, y1] = squareXY(from, n).map((c) => c + CELL / 2);
      const [x2r, y2r] = squareXY(to, n).map((c) => c + CELL / 2);
      const len = Math.hypot(x2r - x1, y2r - y1) || 1;
      const x2 = x2r - ((x2r - x1) / len) * 8;
      const y2 = y2r - ((y2r - y1) / len) * 8;
      parts.push(`<line class="arrow" data-from="${from}" data-to="${to}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke-width="${7 - i * 2}" stroke-opacity="${0.85 - i * 0.2}" marker-end="url(#ah)"/>`);
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
}

function variantName(v) {
  const key = `variant_${v.id}`;
  const text = t(key);
  return text === key ? v.name : text;
}

function renderStatus() {
  const msg = $("message");
  const res = current().res;
  const st = res.status;
  msg.dataset.over = String(st.over);
  msg.dataset.winner = st.winner || "";
  msg.dataset.reason = st.reason || "";
  msg.classList.toggle("over", st.over);
  if (S.editing) {
    msg.textContent = t("setup_hint");
  } else if (st.over) {
    const who = st.winner ? t(`win_${st.winner}`) : t("draw");
    msg.textContent = `${who} ${t(`reason_${st.reason}`)}`;
  } else if (S.thinking) {
    msg.textContent = t("thinking");
  } else if (S.mode === "play" && atEnd()) {
    msg.textContent = res.to_move === S.human ? t("your_move", { side: t(`side_${S.human}`) }) : t("thinking");
  } else {
    msg.textContent = t("to_move", { side: t(`side_${res.to_move}`) });
  }
  $("board").dataset.toMove = res.to_move;
  $("board").dataset.thinking = String(S.thinking);
}

function renderMoveList() {
  const ol = $("movelist");
  const items = [];
  for (let i = 1; i < S.history.length; i++) {
    const h = S.history[i];
    const cap = h.captures.length ? "x" + h.captures.join("x") : "";
    items.push(`<li><button type="button" data-ply="${i}" class="${i === S.view ? "current" : ""}" aria-current="${i === S.view}">${i}. ${h.move}${cap}</button></li>`);
  }
  ol.innerHTML = items.join("");
  ol.dataset.moves = movesUpTo(S.history.length - 1).join(",");
  ol.dataset.start = S.start;
  const cur = ol.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

function scoreText(score, toMove) {
  // Shown from the attackers' side: positive favours the attackers.
  const sign = toMove === "attackers" ? 1 : -1;
  if ("win" in score) {
    const n = score.win * sign;
    return n > 0 ? t("mate_attackers", { n: Math.abs(n) }) : t("mate_defenders", { n: Math.abs(n) });
  }
  const cp = score.cp * sign;
  return (cp > 0 ? "+" : "") + (cp / 100).toFixed(2);
}

function barFraction(score, toMove) {
  const sign = toMove === "attackers" ? 1 : -1;
  if ("win" in score) return score.win * sign > 0 ? 1 : 0;
  return 1 / (1 + Math.exp((-score.cp * sign) / 300));
}

function renderAnalysis() {
  const a = S.analysis;
  const toMove = current().res.to_move;
  const box = $("analysis");
  box.dataset.infos = String(S.infos);
  if (!a) {
    $("depth").textContent = "–";
    $("depth").dataset.depth = "0";
    $("score").textContent = "–";
    $("nodes").textContent = "–";
    $("lines").innerHTML = "";
    $("bar-fill").style.height = "50%";
    return;
  }
  $("depth").textContent = String(a.depth);
  $("depth").dataset.depth = String(a.depth);
  $("score").textContent = scoreText(a.score, toMove);
  $("nodes").textContent = `${a.nodes.toLocaleString(S.lang)} (${Math.round(a.nps / 1000).toLocaleString(S.lang)} kN/s)`;
  $("bar-fill").style.height = `${Math.round(barFraction(a.score, toMove) * 100)}%`;
  const lines = a.lines && a.lines.length ? a.lines : [{ move: a.pv[0], score: a.score, pv: a.pv }];
  $("lines").innerHTML = lines.filter((l) => l.move).map((l) =>
    `<li><span class="line-score">${scoreText(l.score, toMove)}</span> ${l.pv.map((m) => `<span class="mv">${m}</span>`).join(" ")}</li>`).join("");
}

// ---- games --------------------------------------------------------------------

async function load(variant, start, moves) {
  const gen = ++S.generation;
  stopAnalysis();
  S.thinking = false;
  const prefixes = moves.map((_, i) => moves.slice(0, i + 1));
  const answers = await Promise.all([
    api.moves({ variant: variant.id, position: start }),
    ...prefixes.map((m) => api.moves({ variant: variant.id, position: start, moves: m })),
  ]);
  if (gen !== S.generation) return false;
  S.variant = variant;
  S.start = answers[0].position;
  S.history = answers.map((res, i) => {
    if (i === 0) return { move: null, captures: [], res };
    const before = answers[i - 1].moves.find((m) => m.move === canonicalMove(moves[i - 1]));
    return { move: canonicalMove(moves[i - 1]), captures: before ? before.captures : [], res };
  });
  S.view = S.history.length - 1;
  S.selected = null;
  S.analysis = null;
  S.infos = 0;
  clearError();
  render();
  return true;
}

function canonicalMove(text) {
  const m = /^([a-k]\d{1,2})-?([a-k]\d{1,2})/.exec(text.trim());
  return m ? `${m[1]}-${m[2]}` : text.trim();
}

async function newGame() {
  S.editing = false;
  const ok = await load(S.variant, S.variant.start_position, []);
  if (ok) await maybeComputer();
}

async function playMove(legal) {
  const gen = S.generation;
  const base = movesUpTo(S.view);
  const res = await api.moves({ variant: S.variant.id, position: S.start, moves: [...base, legal.move] });
  if (gen !== S.generation) return;
  S.history = S.history.slice(0, S.view + 1);
  S.history.push({ move: legal.move, captures: legal.captures, res });
  S.view = S.history.length - 1;
  S.selected = null;
  render();
  if (S.mode === "play") await maybeComputer();
  else startAnalysis();
}

async function maybeComputer() {
  const h = last();
  if (S.mode !== "play" || h.res.status.over || h.res.to_move === S.human || S.thinking) return;
  const gen = S.generation;
  S.thinking = true;
  render();
  try {
    const level = Number($("level").value);
    const req = { variant: S.variant.id, position: S.start, moves: movesUpTo(S.history.length - 1), time_ms: Number($("time").value) };
    if (level) req.level = level;
    const a = await api.analyze(req);
    if (gen !== S.generation) return;
    S.thinking = false;
    const legal = h.res.moves.find((m) => m.move === a.best_move);
    if (!legal) throw new Error(t("no_best_move"));
    S.view = S.history.length - 1;
    await playMove(legal);
  } catch (err) {
    if (gen === S.generation) {
      S.thinking = false;
      render();
      showError(err);
    }
  }
}

function takeback() {
  if (S.thinking) return;
  for (let i = S.history.length - 2; i >= 0; i--) {
    if (S.history[i].res.to_move === S.human && !S.history[i].res.status.over) {
      S.history = S.history.slice(0, i + 1);
      S.view = i;
      S.selected = null;
      render();
      return;
    }
  }
}

function go(view) {
  if (S.editing) return;
  S.view = Math.max(0, Math.min(S.history.length - 1, view));
  S.selected = null;
  render();
  if (S.mode === "analyse") startAnalysis();
}

// ---- clicks and keys --------------------------------------------------------------

function onSquare(sq) {
  if (S.editing) return editSquare(sq);
  const h = current();
  if (h.res.status.over || S.thinking) return;
  if (S.mode === "play" && (!atEnd() || h.res.to_move !== S.human)) return;
  if (S.selected) {
    const legal = h.res.moves.find((m) => m.from === S.selected && m.to === sq);
    if (legal) {
      playMove(legal).catch(showError);
      return;
    }
  }
  const movable = h.res.moves.some((m) => m.from === sq);
  S.selected = movable && S.selected !== sq ? sq : null;
  render();
}

function editSquare(sq) {
  const n = S.variant.board_size;
  const file = sq.charCodeAt(0) - 97;
  const row = n - Number(sq.slice(1));
  const here = S.editRows[row][file];
  const piece = S.editPiece === "" || here === S.editPiece ? "" : S.editPiece;
  if (piece === "K") S.editRows = S.editRows.map((r) => r.map((c) => (c === "K" ? "" : c)));
  S.editRows[row][file] = piece;
  render();
}

function squareFromEvent(ev) {
  const el = ev.target.closest("[data-square]");
  return el ? el.dataset.square : null;
}

function onBoardKey(ev) {
  const n = S.variant.board_size;
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
  if (ev.target.closest("input, textarea, select, #board")) return;
  if (ev.key === "ArrowLeft") go(S.view - 1);
  else if (ev.key === "ArrowRight") go(S.view + 1);
  else if (ev.key === "Home") go(0);
  else if (ev.key === "End") go(S.history.length - 1);
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
  renderAnalysis();
  if (S.mode !== "analyse" || S.editing) return;
  const h = current();
  if (h.res.status.over) {
    render();
    return;
  }
  const gen = S.generation;
  const view = S.view;
  const fresh = () => gen === S.generation && view === S.view && S.mode === "analyse";
  $("analysis").dataset.running = "true";
  $("analysis").dataset.streamed = "true";
  S.stopStream = api.stream(
    { variant: S.variant.id, position: S.start, moves: movesUpTo(S.view), time_ms: Number($("atime").value), multipv: Number($("multipv").value) },
    {
      onInfo: (info) => {
        if (!fresh()) return;
        S.infos++;
        S.analysis = info;
        render();
      },
      onDone: (res) => {
        if (!fresh()) return;
        S.analysis = res;
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
  const text = $("position-input").value.trim();
  const moves = $("moves-input").value.split(/[\s,;]+/).map((m) => m.replace(/^\d+\.+/, "")).filter(Boolean);
  clearError();
  try {
    S.editing = false;
    if (await load(S.variant, text || S.variant.start_position, moves)) startAnalysis();
  } catch (err) {
    showError(err);
  }
}

function toggleSetup() {
  if (S.editing) {
    const side = $("setup-side").value;
    const pos = formatPosition(S.editRows, side, 0);
    S.editing = false;
    $("setup").hidden = true;
    $("position-input").value = pos;
    $("moves-input").value = "";
    loadAnalysis();
    return;
  }
  stopAnalysis();
  S.editing = true;
  S.editRows = parsePosition(current().res.position).rows;
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

function setMode(mode) {
  S.mode = mode;
  for (const b of document.querySelectorAll("[role=tab]")) b.setAttribute("aria-selected", String(b.dataset.mode === mode));
  $("play-panel").hidden = mode !== "play";
  $("analyse-panel").hidden = mode !== "analyse";
  document.body.dataset.mode = mode;
  S.selected = null;
  if (mode === "analyse") {
    $("position-input").value = S.start;
    $("moves-input").value = movesUpTo(S.history.length - 1).join(" ");
    startAnalysis();
  } else {
    stopAnalysis();
    S.analysis = null;
    S.editing = false;
    $("setup").hidden = true;
    newGame().catch(showError);
  }
  render();
}

function fillVariants() {
  const sel = $("variant");
  const chosen = sel.value || (S.variant && S.variant.id);
  sel.innerHTML = S.variants.map((v) => `<option value="${v.id}">${variantName(v)} (${v.board_size}×${v.board_size})</option>`).join("");
  if (chosen) sel.value = chosen;
  const lang = $("lang");
  lang.innerHTML = LANGUAGES.map(([code, name]) => `<option value="${code}">${name}</option>`).join("");
  lang.value = S.lang;
}

// ---- start ----------------------------------------------------------------------

async function main() {
  S.lang = chooseLanguage();
  S.variants = await api.variants();
  S.variant = S.variants[0];
  applyLanguage();
  $("board").addEventListener("click", (ev) => {
    const sq = squareFromEvent(ev);
    if (sq) onSquare(sq);
  });
  $("board").addEventListener("keydown", onBoardKey);
  document.addEventListener("keydown", onPageKey);
  $("variant").addEventListener("change", () => {
    S.variant = S.variants.find((v) => v.id === $("variant").value) || S.variants[0];
    if (S.mode === "play") newGame().catch(showError);
    else {
      $("position-input").value = "";
      $("moves-input").value = "";
      loadAnalysis();
    }
  });
  $("lang").addEventListener("change", () => {
    S.lang = $("lang").value;
    safeStorage("set", "branan-lang", S.lang);
    applyLanguage();
  });
  $("side").addEventListener("change", () => {
    S.human = $("side").value;
    newGame().catch(showError);
  });
  $("new-game").addEventListener("click", () => newGame().catch(showError));
  $("takeback").addEventListener("click", takeback);
  $("flip").addEventListener("click", () => { S.flip = !S.flip; render(); });
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(S.view - 1));
  $("next").addEventListener("click", () => go(S.view + 1));
  $("last").addEventListener("click", () => go(S.history.length - 1));
  $("movelist").addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-ply]");
    if (b) go(Number(b.dataset.ply));
  });
  for (const b of document.querySelectorAll("[role=tab]")) b.addEventListener("click", () => setMode(b.dataset.mode));
  $("load").addEventListener("click", loadAnalysis);
  $("analyse-start").addEventListener("click", startAnalysis);
  $("analyse-stop").addEventListener("click", stopAnalysis);
  $("multipv").addEventListener("change", startAnalysis);
  $("copy").addEventListener("click", copyPosition);
  $("setup-toggle").addEventListener("click", toggleSetup);
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
  await newGame();
  document.body.dataset.ready = "true";
}

main().catch(showError);
