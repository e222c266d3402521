// Drawing a board, a path and hints in the page's SVG. Square v = row * cols + col,
// row 0 being rank 1 (drawn at the bottom); each square is one unit of the viewBox.

const SVG = "http://www.w3.org/2000/svg";
const MARGIN = 0.5; // room for the rank numbers (left) and file letters (below)

// Font sizes in squares (the CSS's .num and .coord), and the smallest text worth drawing in
// pixels: the PNG renderer's rule (render/style.py, Geometry.fits), so that text fades out
// rather than shrinking to a smudge, and a line of dots replaces the numbers below it.
export const NUMBER_FONT = 0.27;
export const COORD_FONT = 0.3;
export const READABLE_PX = 7;

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export class BoardView {
  constructor(svg) {
    this.svg = svg;
    this.rows = 0;
    this.cols = 0;
  }

  // The centre of square v in viewBox units.
  centre(v) {
    const r = Math.floor(v / this.cols), c = v % this.cols;
    return [c + 0.5, this.rows - 1 - r + 0.5];
  }

  // Draw an empty board: squares, holes and coordinates.
  reset(spec) {
    const { rows, cols, names, holes, pieceName } = spec;
    this.rows = rows;
    this.cols = cols;
    this.names = names;
    this.pieceName = pieceName;
    const svg = this.svg;
    svg.replaceChildren();
    svg.setAttribute("viewBox", `${-MARGIN} -0.05 ${cols + MARGIN + 0.05} ${rows + MARGIN + 0.05}`);
    this.cells = new Array(rows * cols);
    const squares = el("g", {}, svg);
    for (let r = rows - 1; r >= 0; r--) {
      const row = el("g", { role: "row" }, squares);
      for (let c = 0; c < cols; c++) {
        const v = r * cols + c;
        const hole = holes.has(v);
        const colour = (r + c) % 2 === 0 ? "dark" : "light";
        const rect = el("rect", {
          x: c, y: rows - 1 - r, width: 1, height: 1,
          class: `square ${hole ? "hole" : colour}`,
          id: `sq-${v}`, role: "gridcell", "data-square": names[v],
          "aria-label": hole ? `${names[v]}, a hole` : names[v],
        }, row);
        this.cells[v] = rect;
      }
    }
    const coords = el("g", { "aria-hidden": "true" }, svg);
    // Every file and rank is labelled: the labels show only while the squares are large enough to read them.
    for (let c = 0; c < cols; c++) {
      el("text", { x: c + 0.5, y: rows + 0.25, class: "coord" }, coords).textContent = names[c].replace(/\d+$/, "");
    }
    for (let r = 0; r < rows; r++) {
      el("text", { x: -0.25, y: rows - 1 - r + 0.5, class: "coord" }, coords).textContent = String(r + 1);
    }
    this.marks = el("g", { "aria-hidden": "true" }, svg);
    this.pathLayer = el("g", { "aria-hidden": "true" }, svg);
    this.numLayer = el("g", { "aria-hidden": "true" }, svg);
    this.pieceLayer = el("g", { "aria-hidden": "true" }, svg);
    this.cursor = el("rect", { class: "cursor", width: 1, height: 1, x: 0, y: rows - 1 }, svg);
  }

  // Draw the first `step` squares of `path`. `played` squares (a prefix of the path)
  // are drawn in the player's colour. `closed` draws the closing leap once every square is shown.
  // `visits`: a square the path passes more than once shows all its numbers (a bishop route).
  drawPath(path, step, { played = 0, numbers = true, closed = false, visits = false, piece = null } = {}) {
    this.pathLayer.replaceChildren();
    this.numLayer.replaceChildren();
    this.pieceLayer.replaceChildren();
    for (const cell of this.cells) cell.removeAttribute("aria-description");
    if (!path || step <= 0) return;
    const shown = path.slice(0, step);
    const points = shown.map((v) => this.centre(v).map((x) => +x.toFixed(3)).join(","));
    const mine = Math.min(played, step);
    if (mine > 0) {
      el("polyline", { class: "path played", id: "played-path", points: points.slice(0, mine).join(" "),
                       "data-squares": shown.slice(0, mine).map((v) => this.names[v]).join(" ") }, this.pathLayer);
    }
    // The whole drawn path, played part included, is one polyline: id tour-path.
    el("polyline", { class: "path", id: "tour-path", points: points.join(" "),
                     "data-squares": shown.map((v) => this.names[v]).join(" ") }, this.pathLayer);
    if (mine > 0) this.pathLayer.appendChild(this.pathLayer.firstChild); // the played part on top
    if (closed && step === path.length && path.length > 1) {
      const [x1, y1] = this.centre(path[path.length - 1]);
      const [x2, y2] = this.centre(path[0]);
      el("line", { class: "path", id: "closing-leap", x1, y1, x2, y2, "stroke-dasharray": "0.12 0.1" }, this.pathLayer);
    }
    if (visits) {
      const seen = new Map();
      shown.forEach((v, i) => seen.set(v, [...(seen.get(v) || []), i + 1]));
      for (const [v, steps] of seen) {
        const [x, y] = this.centre(v);
        if (numbers) {
          el("text", { class: steps.length > 1 ? "num multi" : "num", x, y }, this.numLayer).textContent = steps.join(",");
        }
        this.cells[v].setAttribute("aria-description", `step ${steps.join(" and ")}`);
      }
      this.drawPiece(shown[shown.length - 1], piece);
      return;
    }
    shown.forEach((v, i) => {
      const [x, y] = this.centre(v);
      if (numbers) {
        el("text", { class: "num", x, y }, this.numLayer).textContent = String(i + 1);
        // Shown instead of the number while the squares are too small for it (CSS: .hide-numbers).
        if (i < step - 1) el("circle", { class: "dot fallback", cx: x, cy: y, r: 0.09 }, this.numLayer);
      } else if (i < step - 1) {
        el("circle", { class: i < mine ? "dot played" : "dot", cx: x, cy: y, r: 0.09 }, this.numLayer);
      }
      this.cells[v].setAttribute("aria-description", `move ${i + 1}`);
    });
    this.drawPiece(shown[shown.length - 1], piece);
  }

  drawPiece(v, piece = null) {
    this.pieceLayer.replaceChildren();
    if (v === undefined || v === null) return;
    if (this.onPiece) this.onPiece(v); // the page keeps the piece in view on a zoomed board
    const [x, y] = this.centre(v);
    const glyphs = { knight: "\u265E", bishop: "\u265D" };
    el("circle", { class: "piece-bg", cx: x, cy: y, r: 0.36 }, this.pieceLayer);
    el("text", { class: "piece", x, y: y + 0.02 }, this.pieceLayer).textContent = glyphs[piece || this.pieceName] || "\u25C6";
  }

  // A square picked out in a trace: "skipped" (a move given up), "culprit" (why), "left" (a step back).
  mark(v, kind) {
    if (v === undefined || v === null) return;
    const [x, y] = this.centre(v);
    el("rect", { class: `mark ${kind}`, x: x - 0.47, y: y - 0.47, width: 0.94, height: 0.94 }, this.marks);
  }

  // Legal moves in play mode: `degrees` maps each square to its onward moves (Warnsdorff's hint).
  drawLegal(squares, degrees, hints) {
    this.marks.replaceChildren();
    const best = squares.length ? Math.min(...squares.map((v) => degrees.get(v))) : null;
    for (const v of squares) {
      const [x, y] = this.centre(v);
      const isBest = hints && degrees.get(v) === best;
      el("circle", { class: isBest ? "legal best" : "legal", cx: x, cy: y, r: 0.3 }, this.marks);
      if (hints) el("text", { class: isBest ? "degree best" : "degree", x, y }, this.marks).textContent = String(degrees.get(v));
      this.cells[v].setAttribute("aria-description", hints ? `legal move, ${degrees.get(v)} onward` : "legal move");
    }
  }

  clearMarks() { this.marks.replaceChildren(); }

  flashWrong(v) {
    const [x, y] = this.centre(v);
    const mark = el("rect", { class: "wrong", x: x - 0.5, y: y - 0.5, width: 1, height: 1 }, this.marks);
    setTimeout(() => mark.remove(), 700);
  }

  moveCursor(v) {
    const r = Math.floor(v / this.cols), c = v % this.cols;
    this.cursor.setAttribute("x", c);
    this.cursor.setAttribute("y", this.rows - 1 - r);
    this.svg.setAttribute("aria-activedescendant", `sq-${v}`);
  }

  // The board's width in squares, margin included: the page sizes it at so many pixels a square.
  get units() { return this.cols + MARGIN + 0.05; }
  get heightUnits() { return this.rows + MARGIN + 0.05; }

  // Draw the board at `px` pixels a square. Numbers, coordinates and dots are drawn only while
  // they stay readable at that size (READABLE_PX); the svg's classes say which are hidden.
  setScale(px) {
    this.px = px;
    this.svg.style.width = `${(this.units * px).toFixed(1)}px`;
    const hide = { "hide-numbers": NUMBER_FONT * px < READABLE_PX, "hide-coords": COORD_FONT * px < READABLE_PX,
                   "hide-dots": px < READABLE_PX };
    for (const [name, on] of Object.entries(hide)) this.svg.classList.toggle(name, on);
  }

  // The pixel centre of square v within the svg (for scrolling it into view).
  pixelCentre(v) {
    const [x, y] = this.centre(v);
    return [(x + MARGIN) * this.px, (y + 0.05) * this.px];
  }

  // The square under a click, or null.
  squareAt(target) {
    const id = target && target.id;
    return id && id.startsWith("sq-") ? Number(id.slice(3)) : null;
  }
}
