// The chesstours page: settings, the board, watching a tour, and the tabs that switch
// between the modes (play.js, trace.js, bishop.js). Every tour, count and reason comes
// from the JSON api; the page only shows them.

import { get, Latest } from "./api.js";
import { bishopMode } from "./bishop.js";
import { $, boardParams, describeBoard, failure, rate, say, settings, squares, state, tourParams, view, whyNot } from "./page.js";
import { playMode, restart, showPlay, solveFromHere, undo } from "./play.js";
import { traceMode } from "./trace.js";

const requests = { board: new Latest(), exists: new Latest(), count: new Latest(), tour: new Latest() };

// -- settings -----------------------------------------------------------------

function sideValid(input) {
  const n = Number(input.value);
  return Number.isInteger(n) && n >= 1 && n <= Number(input.max);
}

let settingsTimer = null;
function settingsChanged(event) {
  const id = event && event.target && event.target.id;
  if (["method", "tiebreak", "seed"].includes(id)) return; // used by the next tour asked for
  if (id === "closed") {
    stop();
    state.tour = null;
    state.moves = [];
    whyNot(null);
    view.drawPath(null, 0);
    view.clearMarks();
    updateProgress();
    enterMode();
    return;
  }
  clearTimeout(settingsTimer);
  settingsTimer = setTimeout(loadBoard, 250);
}

// -- the board ----------------------------------------------------------------------

async function loadBoard() {
  stop();
  if (!sideValid($("rows")) || !sideValid($("cols"))) {
    say(`Rows and columns are whole numbers from 1 to ${$("rows").max}.`, "error");
    return;
  }
  say("Loading the board...");
  const result = await requests.board.get("/api/board", boardParams());
  if (!result) return;
  if (!result.ok) {
    say(failure(result, "again"), "error");
    return;
  }
  const data = result.data;
  const index = new Map(data.names.map((name, v) => [name, v]));
  const holes = new Set(data.board.holes.map((name) => index.get(name)));
  state.board = {
    rows: data.board.rows, cols: data.board.cols, names: data.names, index, moves: data.moves, holes,
    free: data.names.length - holes.size, piece: data.piece.name,
  };
  state.tour = null;
  state.step = 0;
  state.moves = [];
  state.cursor = Math.min(state.cursor, data.names.length - 1);
  while (holes.has(state.cursor) && state.cursor < data.names.length - 1) state.cursor++;
  view.reset({ rows: state.board.rows, cols: state.board.cols, names: data.names, holes, pieceName: state.board.piece });
  view.moveCursor(state.cursor);
  whyNot(null);
  $("count").textContent = "";
  updateProgress();
  enterMode();
}

async function checkExists() {
  const s = settings();
  say(`Click a square to watch a ${s.closed ? "closed " : ""}tour start there.`);
  const result = await requests.exists.get("/api/exists", { ...boardParams(), closed: s.closed, time_limit: 3 });
  if (!result || !result.ok || state.mode !== "watch") return;
  const kind = s.closed ? "closed tour" : "tour";
  if (result.data.exists === false) {
    say(`No ${kind} exists on ${describeBoard()}.`, "error");
    whyNot(result.data.reason);
  } else {
    showCount(null);
  }
}

async function showCount(start) {
  const line = $("count");
  if (!state.board || state.board.free > state.info.limits.count_squares) {
    line.textContent = "";
    return;
  }
  const s = settings();
  const where = start === null ? `on ${describeBoard()}` : `from ${state.board.names[start]}`;
  line.textContent = `Counting the ${s.closed ? "closed " : ""}tours ${where}...`;
  const params = { ...boardParams(), closed: s.closed, time_limit: 3 };
  if (start !== null) params.start = state.board.names[start];
  const result = await requests.count.get("/api/count", params);
  if (!result) return;
  if (!result.ok) {
    line.textContent = result.status === 400 || result.status === 504
      ? `Too many tours ${where} to count here in a few seconds.` : "";
    return;
  }
  const c = result.data;
  const n = (x) => x.toLocaleString("en");
  if (s.closed) {
    line.textContent = `${n(c.undirected)} closed tour${c.undirected === 1 ? "" : "s"} ${where}` +
      (start === null ? ` (cycles; ${n(c.directed)} counting both directions).` : ".");
  } else if (start === null) {
    line.textContent = `${n(c.directed)} tours ${where} (${n(c.undirected)} paths, each walked both ways).`;
  } else {
    line.textContent = `${n(c.directed)} tour${c.directed === 1 ? "" : "s"} ${where}.`;
  }
}

// -- watching a tour ----------------------------------------------------------------

async function watchFrom(v) {
  stop();
  const name = state.board.names[v];
  say(`Looking for a tour from ${name}...`);
  whyNot(null);
  const result = await requests.tour.get("/api/tour", { ...tourParams(), start: name });
  if (!result) return;
  if (!result.ok) {
    state.tour = null;
    view.drawPath(null, 0);
    updateProgress();
    if (result.status === 404) {
      const heuristic = result.data.proof === "heuristic";
      say(heuristic ? `The chosen method found no tour from ${name}.` : `No tour from ${name}.`, "error");
      whyNot(result.data.detail);
    } else {
      say(failure(result, "that square"), "error");
    }
    return;
  }
  const data = result.data;
  state.tour = { path: squares(data.path), closed: data.closed };
  state.played = 0;
  state.step = 1;
  say(`A ${data.closed ? "closed " : ""}tour from ${name}, found by ${data.method}.`, "good");
  offerPictures({ ...tourParams(), start: name });
  showCount(v);
  draw();
  play();
}

// Links to the same tour drawn by the library's renderers (/api/tour?format=svg|png|gif).
function offerPictures(params) {
  for (const format of ["svg", "png", "gif"]) {
    const query = new URLSearchParams({ format, numbers: format === "gif" ? "false" : "true" });
    for (const [key, value] of Object.entries(params)) if (value !== "" && value !== null) query.set(key, String(value));
    $(`save-${format}`).href = `/api/tour?${query}`;
  }
  $("save-gif-item").hidden = state.board.rows * state.board.cols > state.info.limits.gif_squares;
  $("downloads").hidden = false;
}

function draw() {
  const t = state.tour;
  if (!t) return;
  view.drawPath(t.path, state.step, { played: state.played, numbers: $("numbers").checked, closed: t.closed });
  updateProgress();
}

function updateProgress() {
  const t = state.tour;
  const line = $("progress");
  if (!t || state.mode !== "watch") {
    line.textContent = "";
    $("downloads").hidden = true;
  } else {
    const v = t.path[state.step - 1];
    line.textContent = `Move ${state.step} of ${t.path.length}: ${state.board.names[v]}`;
  }
  $("play").innerHTML = state.playing ? "&#x275A;&#x275A; Pause" : "&#x25B6; Play";
  $("play").setAttribute("aria-label", state.playing ? "Pause" : "Play");
  for (const id of ["first", "back", "play", "forward", "last"]) $(id).disabled = !t;
}

let frame = null;
let last = 0;
let owed = 0;

function tick(now) {
  if (!state.playing) return;
  owed += ((now - last) / 1000) * rate($("speed"));
  last = now;
  const steps = Math.floor(owed);
  if (steps > 0) {
    owed -= steps;
    state.step = Math.min(state.tour.path.length, state.step + steps);
    draw();
  }
  if (state.step >= state.tour.path.length) {
    stop();
    return;
  }
  frame = requestAnimationFrame(tick);
}

function play() {
  if (!state.tour) return;
  if (state.step >= state.tour.path.length) state.step = 1;
  state.playing = true;
  last = performance.now();
  owed = 1; // show the next square at once
  cancelAnimationFrame(frame);
  frame = requestAnimationFrame(tick);
  updateProgress();
}

function stop() {
  state.playing = false;
  cancelAnimationFrame(frame);
  if ($("play")) updateProgress();
}

function stepBy(delta) {
  if (!state.tour) return;
  stop();
  state.step = Math.max(1, Math.min(state.tour.path.length, state.step + delta));
  draw();
}

const watchMode = {
  enter: checkExists,
  leave: stop,
  pick(v) {
    if (state.board.holes.has(v)) say(`${state.board.names[v]} is a hole; pick another square.`, "error");
    else watchFrom(v);
  },
  key(key) {
    const actions = {
      " ": () => (state.playing ? stop() : play()),
      ArrowLeft: () => stepBy(-1),
      ArrowRight: () => stepBy(1),
      Home: () => stepBy(-Infinity),
      End: () => stepBy(Infinity),
    };
    if (!actions[key]) return false;
    actions[key]();
    return true;
  },
};

// -- modes (tabs) -------------------------------------------------------------------

const MODES = { watch: watchMode, play: playMode, trace: traceMode, bishop: bishopMode };

function enterMode() {
  $("count").textContent = "";
  if (state.board) MODES[state.mode].enter();
}

function selectTab(tab) {
  for (const t of document.querySelectorAll('[role="tab"]')) {
    const on = t === tab;
    t.setAttribute("aria-selected", String(on));
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute("aria-controls")).hidden = !on;
  }
  MODES[state.mode].leave();
  state.mode = tab.id.slice("tab-".length);
  // The bishop has its own rules; a trace has its own choice of search.
  $("tour-settings").disabled = state.mode === "bishop";
  $("piece").disabled = state.mode === "bishop";
  $("method").disabled = state.mode === "bishop" || state.mode === "trace";
  $("tiebreak").disabled = state.mode === "bishop";
  stop();
  state.tour = null;
  state.moves = [];
  whyNot(null);
  if (state.board) {
    view.drawPath(null, 0);
    view.clearMarks();
    updateProgress();
    enterMode();
  }
}

function tabKeys(event) {
  const tabs = [...document.querySelectorAll('[role="tab"]:not([hidden])')];
  const i = tabs.indexOf(event.target);
  if (i < 0) return;
  let j = null;
  if (event.key === "ArrowRight") j = (i + 1) % tabs.length;
  if (event.key === "ArrowLeft") j = (i - 1 + tabs.length) % tabs.length;
  if (event.key === "Home") j = 0;
  if (event.key === "End") j = tabs.length - 1;
  if (j === null) return;
  event.preventDefault();
  tabs[j].focus();
  selectTab(tabs[j]);
}

// -- input --------------------------------------------------------------------------

function pick(v) {
  if (!state.board || v === null) return;
  state.cursor = v;
  view.moveCursor(v);
  MODES[state.mode].pick(v);
}

function boardKeys(event) {
  if (!state.board) return;
  const { rows, cols } = state.board;
  let r = Math.floor(state.cursor / cols), c = state.cursor % cols;
  switch (event.key) {
    case "ArrowUp": r = Math.min(rows - 1, r + 1); break;
    case "ArrowDown": r = Math.max(0, r - 1); break;
    case "ArrowLeft": c = Math.max(0, c - 1); break;
    case "ArrowRight": c = Math.min(cols - 1, c + 1); break;
    case "Enter": case " ": event.preventDefault(); pick(state.cursor); return;
    case "Backspace":
      if (state.mode === "play") { event.preventDefault(); undo(); }
      return;
    default: return;
  }
  event.preventDefault();
  event.stopPropagation();
  state.cursor = r * cols + c;
  view.moveCursor(state.cursor);
  const name = state.board.names[state.cursor];
  $("progress").textContent = state.tour ? $("progress").textContent : `Square ${name}`;
}

function pageKeys(event) {
  const tag = event.target.tagName.toLowerCase();
  if (["input", "select", "textarea", "button", "summary", "a"].includes(tag) || event.target.id === "board") return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (MODES[state.mode].key(event.key)) event.preventDefault();
}

async function start() {
  const info = await get("/api/info");
  state.info = info.ok ? info.data : { limits: { count_squares: 0, tour_squares: 2500, bishop_count_squares: 0 }, features: {} };
  const side = Math.min(50, Math.floor(Math.sqrt(state.info.limits.tour_squares)) || 50);
  $("rows").max = $("cols").max = String(Math.max(side, 8));
  for (const [feature, on] of Object.entries(state.info.features || {})) {
    const tab = $(`tab-${feature}`);
    if (tab && on) tab.hidden = false;
  }

  $("settings").addEventListener("input", settingsChanged);
  $("settings").addEventListener("submit", (event) => event.preventDefault());
  $("tiebreak").addEventListener("change", () => { $("seed-label").hidden = $("tiebreak").value !== "random"; });
  $("board").addEventListener("click", (event) => pick(view.squareAt(event.target)));
  $("board").addEventListener("keydown", boardKeys);
  document.addEventListener("keydown", pageKeys);
  for (const tab of document.querySelectorAll('[role="tab"]')) {
    tab.addEventListener("click", () => selectTab(tab));
    tab.addEventListener("keydown", tabKeys);
  }
  $("play").addEventListener("click", () => (state.playing ? stop() : play()));
  $("first").addEventListener("click", () => stepBy(-Infinity));
  $("back").addEventListener("click", () => stepBy(-1));
  $("forward").addEventListener("click", () => stepBy(1));
  $("last").addEventListener("click", () => stepBy(Infinity));
  $("numbers").addEventListener("change", () => (state.mode === "play" && !state.tour ? showPlay() : draw()));
  $("hints").addEventListener("change", showPlay);
  $("undo").addEventListener("click", undo);
  $("restart").addEventListener("click", restart);
  $("solve").addEventListener("click", solveFromHere);
  await loadBoard();
  document.body.dataset.ready = "true";
}

start();
