// The page's link: the board, the options, the tab and the square on show, kept in the
// address's hash (#board=5x6&piece=zebra&start=a1), so that a link copied from the address
// bar, or from "Link to this board", opens the page as it was. The hash never reaches the
// server; only the values that differ from the page's defaults are written.

const DEFAULTS = { piece: "knight", holes: "", method: "auto", tiebreak: "", tab: "watch" };
const TOUR_CHARS = 6000; // a tour to check is kept in the link only up to this length

// The link (a "#..." hash) of `s`: settings() plus {tab, start, numbers, tour, random (the seed of a random tour)}.
export function linkFor(s) {
  const q = new URLSearchParams();
  q.set("board", s.board);
  for (const key of ["piece", "holes", "method", "tiebreak", "tab"]) {
    if (s[key] && s[key] !== DEFAULTS[key]) q.set(key, s[key]);
  }
  if (s.closed) q.set("closed", "1");
  if (s.tiebreak === "random" && s.seed) q.set("seed", s.seed);
  if (s.numbers === false) q.set("numbers", "0");
  if (s.start) q.set("start", s.start);
  if (s.random !== null && s.random !== undefined) q.set("random", String(s.random));
  if (s.tour && s.tour.length <= TOUR_CHARS) q.set("tour", s.tour);
  return `#${q}`;
}

// The state a hash names, or null when it names none: {rows, cols, piece, holes, closed, method,
// tiebreak, seed, tab, start, numbers, tour, random}; a value that is not one of the page's is left out.
export function readLink(hash) {
  const q = new URLSearchParams((hash || "").replace(/^#/, ""));
  const board = /^\s*(\d{1,3})\s*(?:x\s*(\d{1,3}))?\s*$/i.exec(q.get("board") || "");
  if (!board) return null;
  const saved = {
    rows: board[1], cols: board[2] || board[1],
    piece: q.get("piece") || DEFAULTS.piece, holes: q.get("holes") || "",
    closed: q.get("closed") === "1" || q.get("closed") === "true",
    method: q.get("method") || DEFAULTS.method, tiebreak: q.get("tiebreak") || DEFAULTS.tiebreak,
    seed: q.get("seed"), tab: q.get("tab") || DEFAULTS.tab, start: q.get("start"), tour: q.get("tour"),
  };
  if (q.has("numbers")) saved.numbers = q.get("numbers") !== "0";
  if (/^\d{1,16}$/.test(q.get("random") || "")) saved.random = Number(q.get("random"));
  return saved;
}
