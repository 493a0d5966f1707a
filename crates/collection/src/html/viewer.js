"use strict";
// The viewer of notate's pages (`notate html`, `notate serve`): a game on a board, its
// moves with their variations, comments and glyphs. It knows no rules: every position
// comes from the data a page hands it (crates/collection/src/html.rs says how it is
// encoded), expanded when the game is loaded. The page's element ids it uses: board,
// moves, problems, title, subtitle, fen, copy, flip, first, prev, next, last.
const NotateViewer = (function () {
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const NAGS = {
    1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!", 7: "\u25a1", 10: "=", 13: "\u221e",
    14: "\u2a72", 15: "\u2a71", 16: "\u00b1", 17: "\u2213", 18: "+\u2212", 19: "\u2212+",
    22: "\u2a00", 23: "\u2a00", 32: "\u27f3", 33: "\u27f3", 36: "\u2192", 37: "\u2192",
    40: "\u2191", 41: "\u2191", 132: "\u21c6", 133: "\u21c6", 138: "\u2295", 139: "\u2295",
    146: "N",
  };

  let game = null; // the open game
  let current = 0; // the node shown; 0 is the start
  let flipped = false;
  const shown = []; // what is told of each node shown

  // --- Positions: what the page's data says, rebuilt as html.rs rebuilds it ---------

  function counter(s) {
    return /^[0-9]{1,9}$/.test(s) ? parseInt(s, 10) : null;
  }

  // The FEN's fields after a move, as guessed from those before it (html.rs: predict).
  function predict(board, before) {
    const f = before.slice();
    if (f.length > 0) {
      if (f[0] === board.turns[0]) f[0] = board.turns[1];
      else if (f[0] === board.turns[1]) f[0] = board.turns[0];
    }
    if (board.fen === "chess" && f.length === 5) {
      f[2] = "-";
      const half = counter(f[3]);
      if (half !== null) f[3] = String(half + 1);
      if (before[0] === "b") {
        const full = counter(f[4]);
        if (full !== null) f[4] = String(full + 1);
      }
    }
    return f;
  }

  // The FEN of cells and fields (html.rs: fen_of).
  function fenOf(board, cells, fields) {
    let fen = "";
    if (board.fen === "chess") {
      const rows = [];
      for (let r = 0; r < cells.length; r += board.columns) {
        let row = "", empty = 0;
        for (const c of cells.slice(r, r + board.columns)) {
          if (c === ".") empty++;
          else {
            if (empty) row += empty;
            empty = 0;
            row += c;
          }
        }
        if (empty) row += empty;
        rows.push(row);
      }
      fen = rows.join("/");
      for (const f of fields) fen += " " + f;
    } else {
      fen = fields.length ? fields[0] : "";
      for (const [colour, man, king] of [["W", "w", "W"], ["B", "b", "B"]]) {
        const names = [];
        for (const [piece, prefix] of [[man, ""], [king, "K"]]) {
          for (const i of board.order) {
            if (cells[i] === piece) names.push(prefix + board.cells[i][2]);
          }
        }
        fen += ":" + colour + names.join(",");
      }
    }
    return fen;
  }

  // Commands inside comments (`[%clk 0:03:12]`, `[%eval 0.31]`, `[%cal Gg1f3]`,
  // `[%csl Rd4]`): taken out of the text, each by its name; what is left of a comment
  // stays one (when not empty).
  const COMMAND = /\[%([A-Za-z]\w*)\s*([^\]]*)\]/g;
  function commanded(texts) {
    const commands = {};
    const rest = [];
    for (const t of texts) {
      const left = t.replace(COMMAND, (_, name, args) => {
        commands[name] = args.trim();
        return "";
      }).replace(/\s+/g, " ").trim();
      if (left) rest.push(left);
    }
    return [commands, rest];
  }

  // A move's node from its data, played from `parent`.
  function makeNode(board, parent, raw, parentId) {
    const n = {
      parent: parentId, text: raw[0], nags: raw[2] || [], comments: raw[3] || [],
      before: raw[4] || [], ply: parent.ply + 1, next: -1, vars: [],
      cells: parent.cells, fields: parent.fields, changed: [], fen: "",
    };
    const diff = raw[1] || "";
    if (board) {
      const cells = parent.cells.split("");
      let i = 0;
      while (i + 1 < diff.length && diff[i] !== " ") {
        const c = board.names.indexOf(diff[i]);
        if (c >= 0) {
          cells[c] = diff[i + 1];
          n.changed.push(c);
        }
        i += 2;
      }
      n.cells = cells.join("");
      n.fields = predict(board, parent.fields);
      for (const part of diff.slice(i).split(" ")) {
        if (part) n.fields[+part[0]] = part.slice(1);
      }
      n.fen = fenOf(board, n.cells, n.fields);
    }
    if (raw[5]) n.fen = raw[5];
    [n.commands, n.comments] = commanded(n.comments);
    return n;
  }

  // Expands a game's data into nodes (an explicit stack: variations may nest deeply).
  function expand(g, board) {
    const start = {
      parent: -1, ply: 0, next: -1, vars: [], cells: g.s || "", fields: g.f || [],
      changed: [], comments: g.c || [], before: [], nags: [], text: "",
    };
    [start.commands, start.comments] = commanded(start.comments);
    start.fen = g.F || (board ? fenOf(board, start.cells, start.fields) : "");
    const nodes = [start];
    const main = [];
    const stack = [{ raw: g.m || [], i: 0, prev: 0, ids: main }];
    while (stack.length) {
      const f = stack[stack.length - 1];
      if (f.i >= f.raw.length) {
        stack.pop();
        continue;
      }
      const raw = f.raw[f.i++];
      const from = f.prev;
      const n = makeNode(board, nodes[from], raw, from);
      const id = nodes.length;
      nodes.push(n);
      if (f.ids.length) nodes[f.ids[f.ids.length - 1]].next = id;
      f.ids.push(id);
      f.prev = id;
      for (let k = raw.length - 1; k >= 6; k--) {
        const ids = [];
        n.vars.unshift(ids);
        stack.push({ raw: raw[k] || [], i: 0, prev: from, ids });
      }
    }
    if (main.length) start.next = main[0];
    return { data: g, board, nodes, main };
  }

  // --- The move list ------------------------------------------------------------------

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function moveNumber(ply) {
    const [number, second] = game.data.n || [1, 0];
    const index = ply - 1 + second;
    return [number + Math.floor(index / 2), index % 2 === 1];
  }

  function renderMoves() {
    const root = $("moves");
    root.textContent = "";
    const nodes = game.nodes;
    for (const c of nodes[0].comments) root.append(el("span", "comment", c), " ");
    const stack = [{ ids: game.main, i: 0, at: root, number: true }];
    while (stack.length) {
      const f = stack[stack.length - 1];
      if (f.i >= f.ids.length) {
        stack.pop();
        if (stack.length) stack[stack.length - 1].number = true;
        continue;
      }
      const id = f.ids[f.i++];
      const n = nodes[id];
      for (const c of n.before) f.at.append(el("span", "comment", c), " ");
      const [number, second] = moveNumber(n.ply);
      if (!second) f.at.append(el("span", "num", number + "."));
      else if (f.number) f.at.append(el("span", "num", number + "..."));
      const move = el("span", "move", n.text);
      move.dataset.id = id;
      for (const nag of n.nags) move.append(el("span", "glyph", NAGS[nag] || " $" + nag));
      n.element = move;
      f.at.append(move, " ");
      if (n.commands.clk) f.at.append(el("span", "clock", n.commands.clk), " ");
      f.number = false;
      for (const c of n.comments) {
        f.at.append(el("span", "comment", c), " ");
        f.number = true;
      }
      if (n.vars.length) {
        f.number = true;
        const frames = [];
        for (const ids of n.vars) {
          const v = el(f.at === root ? "div" : "span", "variation");
          f.at.append(v, " ");
          frames.push({ ids, i: 0, at: v, number: true });
        }
        for (let k = frames.length - 1; k >= 0; k--) stack.push(frames[k]);
      }
    }
    root.append(el("span", "result", game.result));
  }

  function renderProblems() {
    const box = $("problems");
    box.textContent = "";
    if (game.data.u) {
      box.append(el("div", "unread", "Not read: " + game.data.u));
    }
    const file = game.file;
    for (const [line, column, severity, message] of game.data.d || []) {
      box.append(el("div", severity, `${file}:${line}:${column}: ${severity}: ${message}`));
    }
  }

  // --- The board ----------------------------------------------------------------------

  function svg(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }

  // The top-left corner of a cell, as the board is seen.
  function corner(board, x, y) {
    const column = flipped ? board.columns - 1 - x : x;
    const row = flipped ? y : board.rows - 1 - y;
    return [column * 100, row * 100];
  }

  // The names written on the board: each cell's, or a chess board's files and ranks
  // along its edges (as it is seen).
  // A label is [x, y, text, at the bottom right].
  function coordinates(b) {
    if (b.fen !== "chess") return b.cells.filter((c) => c[2]).map(([x, y, name]) => [x, y, name, false]);
    const out = [];
    for (let i = 0; i < 8; i++) {
      out.push([i, flipped ? 7 : 0, "abcdefgh"[i], true], [flipped ? 7 : 0, i, String(i + 1), false]);
    }
    return out;
  }

  // A chess square's cell (a8 first), from its name.
  function chessCell(name) {
    if (!/^[a-h][1-8]$/.test(name)) return -1;
    return (8 - +name[1]) * 8 + (name.charCodeAt(0) - 97);
  }

  const COLOURS = { G: "#15781b", R: "#882020", Y: "#e68f00", B: "#003088" };

  // The arrows and squares of a node's `[%cal]` and `[%csl]` (chess boards).
  function drawCommands(b, n, marks) {
    if (b.fen !== "chess") return;
    const centre = (c) => {
      const [x, y] = b.cells[c];
      const [px, py] = corner(b, x, y);
      return [px + 50, py + 50];
    };
    for (const part of (n.commands.csl || "").split(",")) {
      const m = /^([GRYB])([a-h][1-8])$/.exec(part.trim());
      if (!m) continue;
      const [cx, cy] = centre(chessCell(m[2]));
      marks.append(svg("circle", { cx, cy, r: 46, class: "ring", stroke: COLOURS[m[1]] }));
    }
    for (const part of (n.commands.cal || "").split(",")) {
      const m = /^([GRYB])([a-h][1-8])([a-h][1-8])$/.exec(part.trim());
      if (!m) continue;
      const [x1, y1] = centre(chessCell(m[2]));
      const [x2, y2] = centre(chessCell(m[3]));
      const line = svg("line", { x1, y1, x2, y2, class: "arrow", stroke: COLOURS[m[1]] });
      line.setAttribute("marker-end", `url(#head-${m[1]})`);
      marks.append(line);
    }
  }

  // The evaluation of a node's `[%eval]`, as a person reads it.
  function evaluation(n) {
    const e = n.commands.eval;
    if (!e) return "";
    const [value] = e.split(",");
    if (value.startsWith("#")) return "mate in " + value.slice(1).replace("-", "") + (value.includes("-") ? " for Black" : "");
    const pawns = parseFloat(value);
    return Number.isFinite(pawns) ? (pawns > 0 ? "+" : "") + pawns.toFixed(2) : value;
  }

  function drawBoard() {
    const b = game.board;
    const area = $("board");
    area.textContent = "";
    if (!b) {
      area.setAttribute("viewBox", "0 0 800 800");
      return;
    }
    area.setAttribute("viewBox", `0 0 ${b.columns * 100} ${b.rows * 100}`);
    area.append(svg("rect", { width: b.columns * 100, height: b.rows * 100, class: "light" }));
    for (let y = 0; y < b.rows; y++) {
      for (let x = 0; x < b.columns; x++) {
        if (b.dark[y * b.columns + x] === "1") {
          const [px, py] = corner(b, x, y);
          area.append(svg("rect", { x: px, y: py, width: 100, height: 100, class: "dark" }));
        }
      }
    }
    const defs = svg("defs", {});
    for (const [name, colour] of Object.entries(COLOURS)) {
      const marker = svg("marker", {
        id: "head-" + name, viewBox: "0 0 10 10", refX: 5, refY: 5,
        markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse",
      });
      marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }));
      defs.append(marker);
    }
    area.append(defs);
    for (const [x, y, name, right] of coordinates(b)) {
      const [px, py] = corner(b, x, y);
      const dark = b.dark[y * b.columns + x] === "1";
      const t = svg("text", right
        ? { x: px + 96, y: py + 94, "text-anchor": "end", class: dark ? "on-dark" : "on-light" }
        : { x: px + 4, y: py + 18, class: dark ? "on-dark" : "on-light" });
      t.textContent = name;
      area.append(t);
    }
    area.append(svg("g", { id: "marks" }), svg("g", { id: "picked" }), svg("g", { id: "pieces" }),
      svg("g", { id: "drawn" }));
  }

  // The cell under a click on the board, or -1.
  function cellAt(event) {
    const b = game && game.board;
    if (!b) return -1;
    const area = $("board");
    const box = area.getBoundingClientRect();
    const column = Math.floor(((event.clientX - box.left) / box.width) * b.columns);
    const row = Math.floor(((event.clientY - box.top) / box.height) * b.rows);
    const x = flipped ? b.columns - 1 - column : column;
    const y = flipped ? row : b.rows - 1 - row;
    return b.cells.findIndex((c) => c[0] === x && c[1] === y);
  }

  // Marks cells (a piece picked up, where it may go).
  function pick(cells) {
    const b = game && game.board;
    const area = $("picked");
    if (!b || !area) return;
    area.textContent = "";
    for (const c of cells) {
      const [x, y] = b.cells[c];
      const [px, py] = corner(b, x, y);
      area.append(svg("rect", { x: px, y: py, width: 100, height: 100, class: "picked" }));
    }
  }

  function show(id) {
    if (!game || id < 0 || id >= game.nodes.length) return;
    const previous = game.nodes[current];
    if (previous && previous.element) previous.element.classList.remove("current");
    current = id;
    const n = game.nodes[id];
    const b = game.board;
    if (b) {
      const marks = $("marks"), pieces = $("pieces");
      marks.textContent = "";
      pieces.textContent = "";
      for (const c of n.changed) {
        const [x, y] = b.cells[c];
        const [px, py] = corner(b, x, y);
        marks.append(svg("rect", { x: px, y: py, width: 100, height: 100, class: "last" }));
      }
      for (let i = 0; i < n.cells.length; i++) {
        const piece = n.cells[i];
        if (piece === "." || !b.pieces[piece] || !b.cells[i]) continue;
        const [x, y] = b.cells[i];
        const [px, py] = corner(b, x, y);
        pieces.append(svg("use", { href: "#" + b.pieces[piece], x: px, y: py }));
      }
      const drawn = $("drawn");
      drawn.textContent = "";
      drawCommands(b, n, drawn);
    }
    const shownEval = $("eval");
    if (shownEval) {
      shownEval.textContent = evaluation(n);
      shownEval.hidden = !shownEval.textContent;
    }
    $("fen").value = n.fen;
    if (n.element) {
      n.element.classList.add("current");
      n.element.scrollIntoView({ block: "nearest" });
    }
    pick([]);
    for (const f of shown) f(n, id);
  }

  // Shows a game: `entry` holds its data and board (as html.rs writes them), its title,
  // subtitle, result and file, and the ply of its main line to show first.
  function load(entry) {
    game = expand(entry.data, entry.board);
    game.result = entry.result || "";
    game.file = entry.file || "";
    current = 0;
    $("title").textContent = entry.title || "";
    $("subtitle").textContent = entry.subtitle || "";
    drawBoard();
    renderMoves();
    renderProblems();
    let id = 0;
    for (let ply = entry.ply || 0; ply > 0 && game.nodes[id].next >= 0; ply--) id = game.nodes[id].next;
    show(id);
  }

  function step(where) {
    if (!game) return;
    const n = game.nodes[current];
    if (where === "next" && n.next >= 0) show(n.next);
    else if (where === "prev" && n.parent >= 0) show(n.parent);
    else if (where === "first") show(0);
    else if (where === "last") {
      let id = current;
      while (game.nodes[id].next >= 0) id = game.nodes[id].next;
      show(id);
    }
  }

  // --- Wiring -------------------------------------------------------------------------

  $("moves").addEventListener("click", (e) => {
    const move = e.target.closest(".move");
    if (move) show(+move.dataset.id);
  });
  for (const name of ["first", "prev", "next", "last"]) {
    $(name).addEventListener("click", () => step(name));
  }
  $("flip").addEventListener("click", () => {
    flipped = !flipped;
    if (game) {
      drawBoard();
      show(current);
    }
  });
  $("copy").addEventListener("click", () => {
    const fen = $("fen");
    const fallback = () => {
      fen.select();
      document.execCommand("copy");
    };
    if (navigator.clipboard) navigator.clipboard.writeText(fen.value).catch(fallback);
    else fallback();
  });
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    const typing = (t instanceof HTMLInputElement && !t.readOnly) ||
      t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement;
    if (typing || !game) return;
    const keys = { ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last" };
    if (keys[e.key]) {
      e.preventDefault();
      step(keys[e.key]);
    }
  });

  return {
    load,
    show,
    step,
    pick,
    cellAt,
    // The node shown, or null.
    node: () => (game ? game.nodes[current] : null),
    // The node after the one shown on its line, or null.
    next: () => (game && game.nodes[current].next >= 0 ? game.nodes[game.nodes[current].next] : null),
    // The plies of the main line up to the node shown, when it is on it; else -1.
    mainPly: () => {
      if (!game) return -1;
      const i = game.main.indexOf(current);
      return current === 0 ? 0 : i < 0 ? -1 : i + 1;
    },
    // Calls `f(node, id)` whenever a node is shown.
    onShow: (f) => shown.push(f),
  };
})();
