"use strict";
// The viewer of `notate html`. It knows no rules: every position comes from the page's
// data, written by notate (crates/notate/src/html.rs says how it is encoded). A game's
// moves are expanded only when the game is opened.
(function () {
  const $ = (id) => document.getElementById(id);
  const data = (id) => JSON.parse($(id).textContent);
  const SVG = "http://www.w3.org/2000/svg";
  // Each game's row: file, number, board, White, Black, Event, Date, Site, Round, result,
  // plies of the main line, errors.
  const GAMES = data("games");
  const FILES = data("files");
  const BOARDS = data("boards");
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
    return n;
  }

  // Expands a game's data into nodes (an explicit stack: variations may nest deeply).
  function expand(index) {
    const row = GAMES[index];
    const g = JSON.parse($("g" + index).textContent);
    const board = g.b >= 0 ? BOARDS[g.b] : null;
    const start = {
      parent: -1, ply: 0, next: -1, vars: [], cells: g.s || "", fields: g.f || [],
      changed: [], comments: g.c || [], before: [], nags: [], text: "",
    };
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
    return { index, row, data: g, board, nodes, main };
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
    root.append(el("span", "result", game.row[9]));
  }

  function renderProblems() {
    const box = $("problems");
    box.textContent = "";
    if (game.data.u) {
      box.append(el("div", "unread", "Not read: " + game.data.u));
    }
    const file = FILES[game.row[0]];
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
    for (const [x, y, name] of b.cells) {
      if (!name) continue;
      const [px, py] = corner(b, x, y);
      const dark = b.dark[y * b.columns + x] === "1";
      const t = svg("text", { x: px + 4, y: py + 18, class: dark ? "on-dark" : "on-light" });
      t.textContent = name;
      area.append(t);
    }
    area.append(svg("g", { id: "marks" }), svg("g", { id: "pieces" }));
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
    }
    $("fen").value = n.fen;
    if (n.element) {
      n.element.classList.add("current");
      n.element.scrollIntoView({ block: "nearest" });
    }
  }

  function open(index) {
    game = expand(index);
    current = 0;
    const r = game.row;
    $("title").textContent = `${r[3] || "?"} \u2013 ${r[4] || "?"}  ${r[9]}`;
    const where = [r[5], r[7], r[8] ? "round " + r[8] : "", r[6]].filter((s) => s && s !== "?");
    where.push(`${FILES[r[0]]} game ${r[1]}`, game.board ? game.board.name : "no board");
    $("subtitle").textContent = where.join(" \u00b7 ");
    for (const tr of document.querySelectorAll("tbody tr.selected")) tr.classList.remove("selected");
    const tr = rows[index];
    if (tr) tr.classList.add("selected");
    drawBoard();
    renderMoves();
    renderProblems();
    show(0);
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

  // --- The list of games --------------------------------------------------------------

  const rows = [];
  const texts = [];
  function renderList() {
    const body = document.querySelector("#games-table tbody");
    const fragment = document.createDocumentFragment();
    GAMES.forEach((r, i) => {
      const tr = document.createElement("tr");
      tr.dataset.index = i;
      if (r[11] > 0) tr.className = "has-errors";
      for (const text of [i + 1, r[3], r[4], r[9], r[5], r[6]]) {
        tr.append(el("td", "", String(text)));
      }
      fragment.append(tr);
      rows.push(tr);
      texts.push([r[3], r[4], r[5], r[6], r[7], r[8], r[9]].join(" ").toLowerCase());
    });
    body.append(fragment);
    body.addEventListener("click", (e) => {
      const tr = e.target.closest("tr");
      if (tr) open(+tr.dataset.index);
    });
    count(GAMES.length);
  }

  function count(shown) {
    $("count").textContent = shown === GAMES.length
      ? `${GAMES.length} games` : `${shown} of ${GAMES.length} games`;
  }

  function filter() {
    const words = $("filter").value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (let i = 0; i < rows.length; i++) {
      const visible = words.every((w) => texts[i].includes(w));
      rows[i].style.display = visible ? "" : "none";
      if (visible) shown++;
    }
    count(shown);
  }

  // --- Wiring -------------------------------------------------------------------------

  renderList();
  $("filter").addEventListener("input", filter);
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
    if (e.target instanceof HTMLInputElement && e.target.id === "filter") return;
    const keys = { ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last" };
    if (keys[e.key]) {
      e.preventDefault();
      step(keys[e.key]);
    }
  });
  if (GAMES.length) open(0);
})();
