// The chesstours page: settings, watching a tour, playing one.
// Every tour, count and reason comes from the JSON api; this file only shows them.

import { get, Latest } from "./api.js";
import { BoardView } from "./board.js";

const $ = (id) => document.getElementById(id);

const view = new BoardView($("board"));
const requests = { board: new Latest(), exists: new Latest(), count: new Latest(), tour: new Latest() };

const state = {
  info: null,
  board: null,       // {rows, cols, names, moves, holes: Set, free}
  mode: "watch",     // "watch" | "play"
  tour: null,        // {path: [v...], closed}
  played: 0,         // squares of state.tour the player made (play mode)
  step: 0,           // squares of the tour shown
  playing: false,
  cursor: 0,
  moves: [],         // play mode: the player's squares
};

// -- settings -----------------------------------------------------------------

function settings() {
  return {
    board: `${$("rows").value}x${$("cols").value}`,
    piece: $("piece").value,
    holes: $("holes").value.trim(),
    closed: $("closed").checked,
    method: $("method").value,
    tiebreak: $("tiebreak").value,
    seed: $("tiebreak").value === "random" ? $("seed").value : "",
  };
}

function boardParams() {
  const s = settings();
  return { board: s.board, piece: s.piece, holes: s.holes };
}

function tourParams() {
  const s = settings();
  return { ...boardParams(), closed: s.closed, method: s.method, tiebreak: s.tiebreak, seed: s.seed };
}

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
    if (state.mode === "play") showPlay();
    else checkExists();
    return;
  }
  clearTimeout(settingsTimer);
  settingsTimer = setTimeout(loadBoard, 250);
}

// -- status line and "why not?" -----------------------------------------------------

function say(text, kind = "") {
  const status = $("status");
  status.textContent = text;
  status.className = `status ${kind}`;
}

function whyNot(reason) {
  const why = $("why");
  if (!reason) {
    why.hidden = true;
    why.open = false;
    return;
  }
  $("why-text").textContent = reason;
  why.hidden = false;
}

function failure(result, what) {
  if (result.status === 503) return `The server is busy; try ${what} again in a moment.`;
  return result.data.detail || `The server answered ${result.status}.`;
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
  const holes = new Set(data.board.holes.map((name) => data.names.indexOf(name)));
  state.board = {
    rows: data.board.rows, cols: data.board.cols, names: data.names, moves: data.moves, holes,
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
  if (state.mode === "play") {
    say("Click a square to start.");
    showPlay();
    return;
  }
  checkExists();
}

async function checkExists() {
  const s = settings();
  say(`Click a square to watch a ${s.closed ? "closed " : ""}tour start there.`);
  const result = await requests.exists.get("/api/exists", { ...boardParams(), closed: s.closed, time_limit: 3 });
  if (!result || !result.ok) return;
  const kind = s.closed ? "closed tour" : "tour";
  if (result.data.exists === false) {
    say(`No ${kind} exists on ${describeBoard()}.`, "error");
    whyNot(result.data.reason);
  } else {
    showCount(null);
  }
}

function describeBoard() {
  const s = settings();
  return s.holes ? `${s.board} without ${s.holes}` : s.board;
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
  state.tour = { path: data.path.map((n) => state.board.names.indexOf(n)), closed: data.closed };
  state.played = 0;
  state.step = 1;
  say(`A ${data.closed ? "closed " : ""}tour from ${name}, found by ${data.method}.`, "good");
  showCount(v);
  draw();
  play();
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
  } else {
    const v = t.path[state.step - 1];
    line.textContent = `Move ${state.step} of ${t.path.length}: ${state.board.names[v]}`;
  }
  $("play").innerHTML = state.playing ? "&#x275A;&#x275A; Pause" : "&#x25B6; Play";
  $("play").setAttribute("aria-label", state.playing ? "Pause" : "Play");
  for (const id of ["first", "back", "play", "forward", "last"]) $(id).disabled = !t;
}

function speed() {
  // Slider 1..100 -> about 0.5 to 170 moves a second.
  return 0.5 * Math.pow(1.06, Number($("speed").value));
}

let frame = null;
let last = 0;
let owed = 0;

function tick(now) {
  if (!state.playing) return;
  owed += ((now - last) / 1000) * speed();
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

// -- playing ------------------------------------------------------------------------

function legalFrom(v) {
  const used = new Set(state.moves);
  return state.board.moves[v].filter((u) => !used.has(u));
}

function showPlay() {
  const b = state.board;
  const moves = state.moves;
  view.drawPath(moves, moves.length, { played: moves.length, numbers: $("numbers").checked });
  const line = $("play-progress");
  if (!moves.length) {
    view.clearMarks();
    line.textContent = `Squares: 0 of ${b.free}`;
    return;
  }
  const here = moves[moves.length - 1];
  const legal = legalFrom(here);
  const used = new Set(moves);
  const degrees = new Map(legal.map((u) => [u, b.moves[u].filter((w) => !used.has(w) && w !== u).length]));
  view.drawLegal(legal, degrees, $("hints").checked);
  line.textContent = `Squares: ${moves.length} of ${b.free}, on ${b.names[here]}`;
  if (moves.length === b.free) {
    const closes = b.moves[here].includes(moves[0]);
    say(`A complete tour of ${b.free} squares${closes ? ", and closed: the last square is a move from the first" : ""}!`, "good");
  } else if (!legal.length) {
    say(`Dead end on ${b.names[here]} after ${moves.length} squares: no free square is a ${b.piece} move away. Undo, or start again.`, "error");
  }
}

function playAt(v) {
  const b = state.board;
  if (b.holes.has(v)) {
    say(`${b.names[v]} is a hole; a tour cannot use it.`, "error");
    return;
  }
  if (state.tour) {
    // A solution is on show: go back to the player's own moves first.
    state.tour = null;
  }
  whyNot(null);
  const moves = state.moves;
  if (!moves.length) {
    moves.push(v);
    say(`Started on ${b.names[v]}. The highlighted squares are your moves.`);
    showPlay();
    return;
  }
  const here = moves[moves.length - 1];
  if (moves.includes(v)) {
    say(`${b.names[v]} is already visited (square ${moves.indexOf(v) + 1}); pick a highlighted square.`, "error");
    view.flashWrong(v);
    return;
  }
  if (!b.moves[here].includes(v)) {
    say(`${b.names[here]} to ${b.names[v]} is not a ${b.piece} move; pick a highlighted square.`, "error");
    view.flashWrong(v);
    return;
  }
  moves.push(v);
  say(`${b.names[here]} to ${b.names[v]}.`);
  showPlay();
}

function undo() {
  if (state.tour) state.tour = null;
  if (state.moves.length) state.moves.pop();
  whyNot(null);
  say(state.moves.length ? "Took back one move." : "Click a square to start.");
  showPlay();
}

async function solveFromHere() {
  const b = state.board;
  if (!state.moves.length) {
    say("Pick a first square, then ask for the rest.", "error");
    return;
  }
  const moves = state.moves.slice();
  say(`Looking for a tour that continues your ${moves.length} square${moves.length === 1 ? "" : "s"}...`);
  whyNot(null);
  const params = { ...tourParams(), prefix: moves.map((v) => b.names[v]).join(",") };
  if (params.method === "warnsdorff") params.method = "auto";
  const result = await requests.tour.get("/api/tour", params);
  if (!result) return;
  if (!result.ok) {
    if (result.status === 404) {
      say("No tour continues these moves.", "error");
      whyNot(result.data.detail);
    } else {
      say(failure(result, "solving"), "error");
    }
    return;
  }
  const path = result.data.path.map((n) => b.names.indexOf(n));
  view.clearMarks();
  view.drawPath(path, path.length, { played: moves.length, numbers: $("numbers").checked, closed: result.data.closed });
  state.tour = { path, closed: result.data.closed };
  state.played = moves.length;
  state.step = path.length;
  say(`Solved: your ${moves.length} squares (red) and the rest of a tour (blue). Undo or click to go on playing.`, "good");
  $("play-progress").textContent = `Squares: ${path.length} of ${b.free}`;
}

// -- modes (tabs) -------------------------------------------------------------------

function selectTab(tab) {
  for (const t of document.querySelectorAll('[role="tab"]')) {
    const on = t === tab;
    t.setAttribute("aria-selected", String(on));
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute("aria-controls")).hidden = !on;
  }
  state.mode = tab.id === "tab-play" ? "play" : "watch";
  stop();
  state.tour = null;
  state.moves = [];
  whyNot(null);
  if (state.board) {
    view.drawPath(null, 0);
    view.clearMarks();
    updateProgress();
    if (state.mode === "play") {
      say("Click a square to start.");
      showPlay();
    } else {
      checkExists();
    }
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
  if (state.mode === "play") playAt(v);
  else if (state.board.holes.has(v)) say(`${state.board.names[v]} is a hole; pick another square.`, "error");
  else watchFrom(v);
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
  if (state.mode === "watch") {
    const actions = {
      " ": () => (state.playing ? stop() : play()),
      ArrowLeft: () => stepBy(-1),
      ArrowRight: () => stepBy(1),
      Home: () => stepBy(-Infinity),
      End: () => stepBy(Infinity),
    };
    if (actions[event.key]) {
      event.preventDefault();
      actions[event.key]();
    }
  } else if (state.mode === "play" && event.key === "Backspace") {
    event.preventDefault();
    undo();
  }
}

async function start() {
  const info = await get("/api/info");
  state.info = info.ok ? info.data : { limits: { count_squares: 0, tour_squares: 2500 }, features: {} };
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
  $("restart").addEventListener("click", () => { state.moves = []; state.tour = null; whyNot(null); say("Click a square to start."); showPlay(); });
  $("solve").addEventListener("click", solveFromHere);
  await loadBoard();
  document.body.dataset.ready = "true";
}

start();
