// The chesstours page: settings, the board, watching a tour, and the tabs that switch
// between the modes (play.js, trace.js, bishop.js). Every tour, count and reason comes
// from the JSON api; the page only shows them.

import { get, Latest } from "./api.js";
import { bishopMode } from "./bishop.js";
import { checkedText, checkMode, checkTour, setBoardLoader } from "./check.js";
import { resetHeat, toggleHeat } from "./heat.js";
import { $, boardParams, describeBoard, failure, rate, say, settings, squares, state, tourParams, view, whyNot } from "./page.js";
import { playMode, restart, showPlay, solveFromHere, undo } from "./play.js";
import { linkFor, readLink } from "./share.js";
import { traceMode } from "./trace.js";
import { consumeDrag, resetZoom, reveal, zoomAbout, zoomKey } from "./zoom.js";

const requests = { board: new Latest(), exists: new Latest(), countable: new Latest(), count: new Latest(), tour: new Latest(),
                   sample: new Latest() };

// -- settings -----------------------------------------------------------------

function sideValid(input) {
  const n = Number(input.value);
  return Number.isInteger(n) && n >= 1 && n <= Number(input.max);
}

let settingsTimer = null;
function settingsChanged(event) {
  const id = event && event.target && event.target.id;
  updateLink();
  if (["method", "tiebreak", "seed"].includes(id)) return; // used by the next tour asked for
  if (id === "closed") {
    stop();
    state.tour = null;
    state.start = null;
    state.random = null;
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
  resetZoom();
  view.moveCursor(state.cursor);
  state.start = null;
  state.random = null;
  whyNot(null);
  $("count").textContent = "";
  updateProgress();
  updateLink();
  enterMode();
}

// Show `board` ({rows, cols, holes}) and `piece` in the form and on the board (a tour checked: its own board).
async function showBoard(board, piece) {
  const holes = board.holes.join(",");
  const named = piece && [...$("piece").options].some((o) => o.value === piece.name);
  const same = state.board && state.board.rows === board.rows && state.board.cols === board.cols &&
    $("holes").value.trim() === holes && (!named || $("piece").value === piece.name);
  if (same) return;
  $("rows").value = String(board.rows);
  $("cols").value = String(board.cols);
  $("holes").value = holes;
  if (named) $("piece").value = piece.name;
  clearTimeout(settingsTimer);
  await loadBoard();
}

async function checkExists() {
  const s = settings();
  say(`Click a square to watch a ${s.closed ? "closed " : ""}tour start there.`);
  await showFacts(null);
}

// -- the facts panel: does a tour exist here, and how many are there? ---------------------

// Ask /api/exists about the board (start null) or the tours from square `start`, and show the answer with
// how it is known; then count where the server counts quickly. Resolves to the existence answer (or null).
async function showFacts(start) {
  const line = $("exists");
  const s = settings();
  const kind = s.closed ? "closed tour" : "tour";
  const where = start === null ? `on ${describeBoard()}` : `from ${state.board.names[start]}`;
  const question = `Does a ${kind} exist ${where}?`;
  const write = (answer) => {
    const strong = document.createElement("strong");
    strong.textContent = question;
    line.replaceChildren(strong, ` ${answer}`);
  };
  write("Asking...");
  $("count").textContent = "";
  const params = { ...boardParams(), closed: s.closed, time_limit: 3 };
  if (start !== null) params.start = state.board.names[start];
  const result = await requests.exists.get("/api/exists", params);
  if (!result) return null;
  if (!result.ok) {
    write(failure(result, "again"));
    return null;
  }
  const e = result.data;
  // The reason is the library's sentence: "Yes: by Schwenk's theorem ...", "No tour from b1: ...".
  if (e.exists === false && start === null && state.mode === "watch") { // no tour anywhere on the board
    say(`No ${kind} exists on ${describeBoard()}.`, "error");
    whyNot(e.reason);
  }
  const above = !$("why").hidden && $("why-text").textContent === e.reason; // said just above: not twice
  write(e.exists === false ? (above ? "No: the reason is given above." : `No. ${e.reason}`)
    : e.exists === true ? e.reason : `Not known yet: ${e.reason}`);
  line.className = e.exists === false ? "no" : e.exists === true ? "yes" : "";
  if (e.exists !== false) showCount(start);
  return e;
}

async function showCount(start) {
  const line = $("count");
  if (!state.board) return;
  const s = settings();
  const where = start === null ? `on ${describeBoard()}` : `from ${state.board.names[start]}`;
  line.textContent = `Counting the ${s.closed ? "closed " : ""}tours ${where}...`;
  const params = { ...boardParams(), closed: s.closed, time_limit: 3 };
  if (start !== null) params.start = state.board.names[start];
  // First ask whether the server would count this in a few seconds (an answer, never an error), so that a
  // refusal is said with its reason and no count is asked for that would only be refused.
  const plan = await requests.countable.get("/api/countable", params);
  if (!plan) return;
  if (!plan.ok || !plan.data.countable) {
    line.textContent = plan.ok ? `Not counted here: ${plan.data.reason}` : "";
    return;
  }
  const result = await requests.count.get("/api/count", params);
  if (!result) return;
  if (!result.ok) {
    // 400: refused before it started (the server's reason: it would take too long); 504: it ran out of time.
    line.textContent = result.status === 504
      ? `Too many tours ${where} to count here in a few seconds; chesstours count has no such limit.`
      : `Counting is refused here: ${failure(result, "counting")}`;
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
  state.start = v;
  state.random = null;
  $("random-seed").textContent = "";
  requests.sample.cancel();
  updateLink();
  const result = await requests.tour.get("/api/tour", { ...tourParams(), start: name });
  if (!result) return;
  const data = result.data;
  if (!result.ok || data.found === false) {
    state.tour = null;
    view.drawPath(null, 0);
    updateProgress();
    if (result.ok) { // no tour: an answer (200), with its reason and how it is known
      const heuristic = data.proof === "heuristic";
      say(heuristic ? `The chosen method found no tour from ${name}.` : `No tour from ${name}.`, "error");
      whyNot(data.reason, data.how);
      if (!heuristic) showFacts(v);
    } else {
      say(failure(result, "that square"), "error");
    }
    return;
  }
  state.tour = { path: squares(data.path), closed: data.closed };
  state.played = 0;
  state.step = 1;
  say(`A ${data.closed ? "closed " : ""}tour from ${name}, found by ${data.method}.`, "good");
  offerPictures({ ...tourParams(), start: name });
  showFacts(v);
  draw();
  play();
}

// A tour drawn uniformly from every tour (/api/sample) with `seed` (a new one when null): from the square on
// show if there is one, else from every tour of the board. The seed is shown and kept in the page's link, so
// that the link draws the same tour again. Where the server does not draw it quickly, its reason is shown.
async function randomTour(seed = null) {
  stop();
  requests.tour.cancel();
  if (seed === null) seed = Math.floor(Math.random() * 2 ** 32);
  const s = settings();
  const from = state.start === null ? null : state.board.names[state.start];
  const where = from === null ? `on ${describeBoard()}` : `from ${from}`;
  const kind = s.closed ? "closed tour" : "tour";
  say(`Drawing a random ${kind} ${where}...`);
  whyNot(null);
  state.random = seed;
  $("random-seed").textContent = `seed ${seed}`;
  updateLink();
  const params = { ...boardParams(), closed: s.closed, seed, time_limit: 5 };
  if (from !== null) params.start = from;
  const result = await requests.sample.get("/api/sample", params);
  if (!result) return;
  const data = result.data;
  if (!result.ok || data.found === false) {
    state.tour = null;
    view.drawPath(null, 0);
    updateProgress();
    if (result.ok && data.proof === "limit") {
      say(`No random ${kind} ${where} here.`, "error");
      whyNot(data.reason, data.how);
    } else if (result.ok) { // no tour at all: its reason and how it is known
      say(`No ${kind} ${where}.`, "error");
      whyNot(data.reason, data.how);
    } else {
      say(failure(result, "a random tour"), "error");
    }
    return;
  }
  state.tour = { path: squares(data.path), closed: data.closed };
  state.played = 0;
  state.step = 1;
  const n = (x) => x.toLocaleString("en");
  say(`A random ${kind} ${where}: number ${n(data.stats.rank + 1)} of ${n(data.stats.tours)}, each as likely ` +
      `(seed ${seed}).`, "good");
  $("downloads").hidden = true;
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
    if (key === " " && !state.tour) return false; // nothing to play: on the board, Space picks the square
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

const MODES = { watch: watchMode, play: playMode, trace: traceMode, bishop: bishopMode, check: checkMode };

function enterMode() {
  resetHeat();
  $("count").textContent = "";
  $("exists").textContent = "";
  $("facts").hidden = state.mode !== "watch";
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
  state.start = null;
  state.random = null;
  state.moves = [];
  whyNot(null);
  updateLink();
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
  reveal(v);
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
    case "Enter": event.preventDefault(); pick(state.cursor); return;
    case " ":
      // Space plays or pauses what is on show; only with nothing to play does it pick the square.
      event.preventDefault();
      if (!MODES[state.mode].key(" ")) pick(state.cursor);
      return;
    case "Backspace":
      if (state.mode === "play") { event.preventDefault(); undo(); }
      return;
    default:
      if (!event.ctrlKey && !event.metaKey && !event.altKey && zoomKey(event.key)) event.preventDefault();
      return;
  }
  event.preventDefault();
  event.stopPropagation();
  state.cursor = r * cols + c;
  view.moveCursor(state.cursor);
  reveal(state.cursor);
  const name = state.board.names[state.cursor];
  $("progress").textContent = state.tour ? $("progress").textContent : `Square ${name}`;
}

// Whether Space belongs to the element with the focus: typing in a text field, ticking a box,
// opening a list. Anywhere else (a button, a link, a tab, the page) Space plays or pauses.
function ownsSpace(target) {
  const tag = target.tagName.toLowerCase();
  if (tag === "textarea" || tag === "select" || target.isContentEditable) return true;
  if (tag !== "input") return false;
  return !["button", "submit", "reset", "range", "file", "color", "image"].includes(target.type);
}

function pageKeys(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.target.id === "board") return;
  if (event.key === " ") {
    if (ownsSpace(event.target)) return;
    // A button with the focus (the one just clicked) would click again on Space: it pauses instead.
    if (MODES[state.mode].key(" ")) event.preventDefault();
    else if (event.target.tagName.toLowerCase() !== "button") event.preventDefault(); // not a page scroll
    return;
  }
  const tag = event.target.tagName.toLowerCase();
  if (["input", "select", "textarea", "button", "summary", "a"].includes(tag)) return;
  if (MODES[state.mode].key(event.key)) event.preventDefault();
}

// -- the page's link: the board, the options, the tab and the square on show -------------------

function updateLink() {
  const href = linkFor({ ...settings(), tab: state.mode,
                         start: state.start !== null && state.board ? state.board.names[state.start] : null,
                         numbers: $("numbers").checked, random: state.mode === "watch" ? state.random : null, tour: state.mode === "check" ? checkedText() : null });
  history.replaceState(null, "", href);
  $("share").href = href;
  $("share-status").textContent = "";
}

async function copyLink() {
  updateLink();
  const url = location.href;
  try {
    await navigator.clipboard.writeText(url);
    $("share-status").textContent = "Link copied.";
  } catch {
    $("share-status").textContent = `Copy this link: ${url}`;
  }
}

// Put the state a link names into the form, before the first board is drawn; what comes after
// the board (a tab, a square, a tour to check) is returned.
function restoreLink() {
  const saved = readLink(location.hash);
  if (!saved) return null;
  const set = (id, value) => { if (value !== undefined && value !== null) $(id).value = value; };
  set("rows", saved.rows);
  set("cols", saved.cols);
  if (saved.piece && [...$("piece").options].some((o) => o.value === saved.piece)) $("piece").value = saved.piece;
  set("holes", saved.holes);
  $("closed").checked = !!saved.closed;
  if ([...$("method").options].some((o) => o.value === saved.method)) $("method").value = saved.method;
  if ([...$("tiebreak").options].some((o) => o.value === saved.tiebreak)) $("tiebreak").value = saved.tiebreak;
  set("seed", saved.seed);
  $("seed-label").hidden = $("tiebreak").value !== "random";
  if (saved.numbers !== undefined) $("numbers").checked = saved.numbers;
  return saved;
}

async function afterLink(saved) {
  if (!saved) return;
  const tab = saved.tab && $(`tab-${saved.tab}`);
  if (tab && !tab.hidden && saved.tab !== state.mode) selectTab(tab);
  if (saved.tab === "check" && saved.tour) {
    $("check-text").value = saved.tour;
    await checkTour(saved.tour);
  } else if (saved.start && state.board && state.board.index.has(saved.start)) {
    const v = state.board.index.get(saved.start);
    state.cursor = v;
    view.moveCursor(v);
    if (saved.random !== undefined && state.mode === "watch") {
      state.start = v;
      await randomTour(saved.random);
    } else {
      pick(v);
    }
  } else if (saved.random !== undefined && state.board && state.mode === "watch") {
    await randomTour(saved.random);
  }
}

// Every named piece the server knows, in its order (shortest leap first), in the form's list; without an
// answer the list keeps the pieces written in the page.
function showPieces(pieces) {
  if (!pieces || !Object.keys(pieces).length) return;
  const chosen = $("piece").value;
  $("piece").replaceChildren(...Object.entries(pieces).map(([name, leap]) => {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = `${name} (${leap.join(",")})`;
    return option;
  }));
  $("piece").value = Object.hasOwn(pieces, chosen) ? chosen : "knight";
}

async function start() {
  const info = await get("/api/info");
  state.info = info.ok ? info.data : { limits: { count_squares: 0, tour_squares: 2500, bishop_count_squares: 0 }, features: {} };
  showPieces(state.info.pieces);
  const side = Math.min(50, Math.floor(Math.sqrt(state.info.limits.tour_squares)) || 50);
  $("rows").max = $("cols").max = String(Math.max(side, 8));
  for (const [feature, on] of Object.entries(state.info.features || {})) {
    const tab = $(`tab-${feature}`);
    if (tab && on) tab.hidden = false;
  }
  $("random-group").hidden = $("heat-group").hidden = !(state.info.features || {}).sample;

  $("settings").addEventListener("input", settingsChanged);
  $("settings").addEventListener("submit", (event) => event.preventDefault());
  $("tiebreak").addEventListener("change", () => { $("seed-label").hidden = $("tiebreak").value !== "random"; });
  $("board").addEventListener("click", (event) => {
    if (consumeDrag()) return; // the end of a drag that moved the board
    pick(view.squareAt(event.target));
  });
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
  $("numbers").addEventListener("change", updateLink);
  $("share-copy").addEventListener("click", copyLink);
  $("random").addEventListener("click", () => randomTour());
  $("heat-show").addEventListener("click", toggleHeat);
  document.addEventListener("tourchecked", updateLink);
  setBoardLoader(showBoard);
  // On a zoomed board the box follows the piece, in every tab (a tour, a trace, a bishop route).
  view.onPiece = reveal;
  // The zoom buttons keep the piece of the tour on show in place, else the keyboard's cursor.
  zoomAbout(() => (state.tour && state.step ? state.tour.path[state.step - 1] : state.cursor));
  const saved = restoreLink();
  await loadBoard();
  await afterLink(saved);
  // A link opened in this tab (or the hash edited by hand) shows what it names.
  window.addEventListener("hashchange", async () => {
    const again = restoreLink();
    if (!again) return;
    await loadBoard();
    await afterLink(again);
  });
  document.body.dataset.ready = "true";
}

start();
