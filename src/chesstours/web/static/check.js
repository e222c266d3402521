// "Check your tour": paste or upload a tour (moves, a numbered grid, or JSON); the server reads
// it with the library's parser and checks it (POST /api/check, as `chesstours check` does), and
// the page draws it on its board: the whole tour when valid, or up to the first wrong square,
// which is shaded red.

import { $, failure, say, settings, squares, state, view, whyNot } from "./page.js";

let controller = null;
let shown = null;   // the last answer, drawn once its board is on show
let loadBoardAs = null; // set by app.js: switch the form to a board and draw it

export function setBoardLoader(fn) { loadBoardAs = fn; }

// The text being checked, for the page's link (null when none was checked).
export function checkedText() { return shown ? shown.text : null; }

async function post(text) {
  if (controller) controller.abort();
  controller = new AbortController();
  const mine = controller;
  const query = new URLSearchParams();
  const s = settings();
  if ($("check-board").value === "form") {
    query.set("board", s.board);
    if (s.holes) query.set("holes", s.holes);
  }
  query.set("piece", s.piece);
  if ($("check-closed").checked) query.set("closed", "true");
  try {
    const response = await fetch(`/api/check?${query}`, {
      method: "POST", body: text, signal: mine.signal,
      headers: { "Content-Type": "text/plain; charset=utf-8", Accept: "application/json" },
    });
    let data;
    try { data = await response.json(); } catch { data = { detail: `The server answered ${response.status}.` }; }
    return mine === controller ? { ok: response.ok, status: response.status, data } : null;
  } catch (error) {
    if (error.name === "AbortError") return null;
    return { ok: false, status: 0, data: { detail: "The server cannot be reached; is chesstours serve still running?" } };
  }
}

export async function checkTour(text) {
  const limit = (state.info && state.info.limits.check_bytes) || 65536;
  const bytes = new TextEncoder().encode(text).length;
  const line = $("check-result");
  whyNot(null);
  if (!text.trim()) {
    line.textContent = "Paste a tour, or pick a file, then press Check.";
    line.className = "check-result error";
    return;
  }
  if (bytes > limit) { // refused here at once, as the server would (413)
    line.textContent = `This tour is ${bytes.toLocaleString("en")} bytes; the server checks at most ${limit.toLocaleString("en")} (chesstours check FILE has no limit).`;
    line.className = "check-result error";
    return;
  }
  line.textContent = "Checking...";
  line.className = "check-result";
  const result = await post(text);
  if (!result) return;
  if (!result.ok) {
    line.textContent = failure(result, "checking");
    line.className = "check-result error";
    return;
  }
  shown = { ...result.data, text };
  const d = result.data;
  line.textContent = d.valid ? `Valid: ${d.summary.replace(/^valid: /, "")}.` : `Not a tour: ${d.problem}`;
  line.className = `check-result ${d.valid ? "good" : "error"}`;
  if (d.tour && loadBoardAs) await loadBoardAs(d.tour.board, d.tour.piece);
  draw();
  document.dispatchEvent(new CustomEvent("tourchecked")); // the page's link now keeps this tour
}

// Draw the answer on show on the board, if it is that answer's board.
function draw() {
  view.clearMarks();
  if (!shown || !shown.tour || !state.board) return;
  const b = shown.tour.board;
  if (state.board.rows !== b.rows || state.board.cols !== b.cols) return;
  const path = squares(shown.tour.path);
  const upTo = shown.valid || shown.step === null ? path.length : shown.step + 1;
  view.drawPath(path, upTo, { numbers: $("numbers").checked, closed: shown.tour.closed && shown.valid });
  if (!shown.valid && shown.step !== null) view.mark(path[shown.step], "skipped");
  state.tour = null;
  say(shown.valid ? `Your tour of ${shown.tour.path.length} squares, drawn.`
    : shown.step !== null ? `Drawn up to square ${shown.step + 1}, where it goes wrong (shaded red).` : "Your squares, drawn.",
  shown.valid ? "good" : "error");
}

async function readFile() {
  const file = $("check-file").files[0];
  if (!file) return;
  const limit = (state.info && state.info.limits.check_bytes) || 65536;
  if (file.size > limit) {
    $("check-result").textContent = `${file.name} is ${file.size.toLocaleString("en")} bytes; the server checks at most ${limit.toLocaleString("en")}.`;
    $("check-result").className = "check-result error";
    return;
  }
  $("check-text").value = await file.text();
  await checkTour($("check-text").value);
}

export const checkMode = {
  enter() {
    say("Paste or upload a tour, then press Check: it is checked and drawn here.");
    draw();
  },
  leave() { if (controller) controller.abort(); },
  pick() { say("This tab checks the tour you give it; the Watch and Play tabs use the board.", ""); },
  key: () => false,
};

$("check-form").addEventListener("submit", (event) => {
  event.preventDefault();
  checkTour($("check-text").value);
});
$("check-file").addEventListener("change", readFile);
