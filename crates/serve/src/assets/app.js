"use strict";
// notate serve's page: the list of the collection's games (searched and paged by the
// server), the viewer (viewer.js) showing a game or a line played on the board, and the
// explorer at the position shown. It knows no rules: the server sends each game as the
// viewer takes it, and for a line played on the board its positions and legal moves
// (/api/board).
(function () {
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = String(text);
    return e;
  };
  const PAGE = 50;

  // What the board shows: a game of the collection, or a line from a FEN (or the
  // start) through moves played on the board or in the explorer.
  let shown = null; // {kind: "game", id, variant, listed} | {kind: "line", fen, play, variant}
  let legal = []; // the legal moves at the end of a line: {uci, san, from, to}
  let picked = -1; // the cell of the piece picked up
  let list = { offset: 0, count: 0, rows: [] };
  let listAsked = 0; // requests are numbered so that a late answer does not overwrite a newer one
  let exploreAsked = 0;

  async function api(path, params) {
    const url = new URL(path, location.origin);
    for (const [k, v] of Object.entries(params || {})) {
      if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, v);
    }
    const response = await fetch(url);
    const type = response.headers.get("content-type") || "";
    const body = type.includes("json") ? await response.json() : await response.text();
    if (!response.ok) throw new Error((body && body.error) || response.statusText);
    return body;
  }

  function resultText(winner) {
    return winner === "white" ? "1-0" : winner === "black" ? "0-1" : winner === "draw" ? "\u00bd-\u00bd" : "*";
  }

  function playerText(p) {
    return p.rating ? `${p.name} (${p.rating})` : p.name;
  }

  // --- The list -----------------------------------------------------------------------

  function criteria() {
    const form = $("search");
    const get = (name) => form.elements[name].value.trim();
    const p = {};
    for (const name of ["event", "site", "opening", "eco", "since", "until", "result", "variant",
      "minRating", "maxRating", "minPlies", "maxPlies"]) {
      p[name] = get(name);
    }
    const player = get("player");
    const color = get("color");
    if (player) p[color || "player"] = player;
    const sort = get("sort");
    if (sort === "date-asc") {
      p.sort = "date";
      p.order = "asc";
    } else {
      p.sort = sort;
    }
    if (form.elements.here.checked) {
      const n = NotateViewer.node();
      if (n && n.fen) {
        p.fen = n.fen;
        if (!p.variant) p.variant = variantShown();
      }
    }
    return p;
  }

  async function search(offset) {
    const asked = ++listAsked;
    $("count").textContent = "Searching\u2026";
    $("count").classList.remove("error");
    try {
      const answer = await api("/api/games", { ...criteria(), offset, limit: PAGE });
      if (asked !== listAsked) return;
      list = { offset, count: answer.count, rows: answer.games };
      renderList();
    } catch (e) {
      if (asked !== listAsked) return;
      $("count").textContent = e.message;
      $("count").classList.add("error");
    }
  }

  function renderList() {
    const body = document.querySelector("#games-table tbody");
    body.textContent = "";
    for (const g of list.rows) {
      const tr = el("tr");
      tr.tabIndex = 0;
      tr.dataset.id = g.id;
      if (shown && shown.kind === "game" && shown.id === g.id) tr.className = "selected";
      for (const text of [g.id + 1, playerText(g.white), playerText(g.black), resultText(g.winner),
        g.event, g.date]) {
        tr.append(el("td", "", text));
      }
      tr.title = `${g.file} game ${g.number}` + (g.opening ? ` \u00b7 ${g.eco || ""} ${g.opening}` : "");
      body.append(tr);
    }
    const n = list.count;
    $("count").textContent = n === 1 ? "1 game" : `${n.toLocaleString("en")} games`;
    const last = Math.max(0, Math.ceil(n / PAGE) - 1);
    const at = Math.floor(list.offset / PAGE);
    $("page-at").textContent = n ? `page ${at + 1} of ${last + 1}` : "";
    $("page-prev").disabled = at <= 0;
    $("page-next").disabled = at >= last;
  }

  // --- Showing a game or a line -------------------------------------------------------

  function variantShown() {
    if (!shown) return "";
    return shown.variant || "";
  }

  function tag(tags, name) {
    const t = tags.find((pair) => pair[0] === name);
    return t ? t[1] : "";
  }

  async function openGame(id, ply) {
    try {
      const g = await api(`/api/games/${id}`, { format: "view" });
      const l = g.listed;
      shown = { kind: "game", id, variant: l.variant, listed: l };
      legal = [];
      const where = [tag(g.tags, "Event"), tag(g.tags, "Site"), tag(g.tags, "Round") ? "round " + tag(g.tags, "Round") : "",
        tag(g.tags, "Date")].filter((s) => s && s !== "?");
      where.push(`${g.file} game ${g.number}`);
      if (l.variant) where.push(l.variant);
      NotateViewer.load({
        data: g.view.game,
        board: g.view.board,
        title: `${tag(g.tags, "White") || "?"} \u2013 ${tag(g.tags, "Black") || "?"}  ${g.result}`,
        subtitle: where.join(" \u00b7 "),
        result: g.result,
        file: g.file,
        ply: ply || 0,
      });
      renderList();
    } catch (e) {
      $("title").textContent = e.message;
    }
  }

  // Shows the line from `fen` (the start when empty) through `play` (UCI moves), at its end.
  async function openLine(fen, play, variant) {
    try {
      const answer = await api("/api/board", { fen, play: play.join(","), variant });
      shown = { kind: "line", fen, play, variant };
      legal = answer.moves;
      NotateViewer.load({
        data: answer.view.game,
        board: answer.view.board,
        title: play.length ? "A line played here" : "A position",
        subtitle: fen ? `from ${fen}` : "from the start position",
        result: "",
        file: "",
        ply: play.length,
      });
      renderList();
    } catch (e) {
      $("explorer-status").textContent = e.message;
      $("explorer-status").classList.add("error");
    }
  }

  // Plays a move (UCI) from the position shown: the game's next move when it is that
  // move, else a line from the position shown.
  function play(uci, san) {
    const n = NotateViewer.node();
    if (!n) return;
    if (shown && shown.kind === "line" && NotateViewer.mainPly() === shown.play.length) {
      openLine(shown.fen, shown.play.concat([uci]), shown.variant);
      return;
    }
    const next = shown && shown.kind === "game" ? NotateViewer.next() : null;
    if (next && san && next.text.replace(/[+#!?]+$/, "") === san.replace(/[+#!?]+$/, "")) {
      NotateViewer.step("next");
      return;
    }
    if (shown && shown.kind === "line" && NotateViewer.mainPly() >= 0) {
      openLine(shown.fen, shown.play.slice(0, NotateViewer.mainPly()).concat([uci]), shown.variant);
      return;
    }
    openLine(n.fen, [uci], variantShown());
  }

  // --- Playing on the board -----------------------------------------------------------

  // The legal moves at the position shown: those of a line's end are known; elsewhere
  // the server is asked.
  async function legalHere() {
    const n = NotateViewer.node();
    if (!n) return [];
    if (shown && shown.kind === "line" && NotateViewer.mainPly() === shown.play.length) return legal;
    try {
      const answer = await api("/api/board", { fen: n.fen, variant: variantShown() });
      return answer.moves;
    } catch (e) {
      return [];
    }
  }

  // Plays the move from `from` to `to` at the position shown: one is played; when several
  // go there (a promotion's pieces, draughts captures that end on one square by other
  // ways) the player chooses. Whether any does.
  function playFromTo(moves, from, to) {
    const chosen = moves.filter((m) => m.from === from && m.to === to);
    if (chosen.length === 1) play(chosen[0].uci, chosen[0].san);
    else if (chosen.length > 1) choose(chosen);
    return chosen.length > 0;
  }

  // Offers the moves as buttons over the board; Escape or Cancel leaves the position.
  function choose(moves) {
    const box = $("choice");
    box.textContent = "";
    box.append(el("div", "ask", "Which move?"));
    for (const m of moves) {
      const button = el("button", "", m.san);
      button.type = "button";
      button.dataset.uci = m.uci;
      button.addEventListener("click", () => {
        closeChoice();
        play(m.uci, m.san);
      });
      box.append(button);
    }
    const cancel = el("button", "cancel", "Cancel");
    cancel.type = "button";
    cancel.addEventListener("click", closeChoice);
    box.append(cancel);
    box.hidden = false;
    box.querySelector("button").focus();
  }

  // The choice's box, over the board (the viewer's markup has none).
  (function () {
    const box = el("div");
    box.id = "choice";
    box.hidden = true;
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", "Choose a move");
    $("board-wrap").append(box);
  })();

  function closeChoice() {
    const box = $("choice");
    box.hidden = true;
    box.textContent = "";
  }

  $("choice").addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      closeChoice();
    }
    // The viewer's keys do not step the game under an open choice.
    e.stopPropagation();
  });

  // A piece is played by clicking it then its square, or by dragging it there: a press
  // picks it up (or, with one picked, plays it to the square pressed), a release on
  // another square plays it there.
  let pressed = null; // {cell, moves}: the press that picked a piece, until released
  $("board").addEventListener("pointerdown", (e) => {
    const cell = NotateViewer.cellAt(e);
    if (cell < 0 || !$("choice").hidden) return;
    e.preventDefault();
    // The release is the board's wherever it happens, so that a drag off it ends.
    $("board").setPointerCapture(e.pointerId);
    const moves = legalHere();
    const from = picked;
    pressed = null;
    if (from >= 0) {
      picked = -1;
      NotateViewer.pick([]);
      // The picked piece pressed again is put down.
      if (from !== cell) {
        moves.then((ms) => {
          if (!playFromTo(ms, from, cell)) pickUp(ms, cell);
        });
      }
      return;
    }
    const press = { cell, moves };
    pressed = press;
    moves.then((ms) => {
      if (pressed === press || picked < 0) pickUp(ms, cell);
    });
  });
  $("board").addEventListener("pointerup", (e) => {
    const press = pressed;
    pressed = null;
    if (!press) return;
    const cell = NotateViewer.cellAt(e);
    if (cell < 0 || cell === press.cell) return;
    press.moves.then((ms) => {
      if (picked !== press.cell) return;
      picked = -1;
      NotateViewer.pick([]);
      playFromTo(ms, press.cell, cell);
    });
  });

  // Picks up the piece on `cell` when it has moves: it and its squares are marked.
  function pickUp(moves, cell) {
    const from = moves.filter((m) => m.from === cell);
    if (from.length) {
      picked = cell;
      NotateViewer.pick([cell, ...from.map((m) => m.to)]);
    } else {
      picked = -1;
      NotateViewer.pick([]);
    }
  }

  // --- The explorer -------------------------------------------------------------------

  function explorerFilters() {
    const form = $("explorer-filters");
    const p = {};
    for (const name of ["speeds", "ratings", "since", "until"]) p[name] = form.elements[name].value.trim();
    return p;
  }

  async function explore() {
    const n = NotateViewer.node();
    if (!n || !n.fen) return;
    const asked = ++exploreAsked;
    const status = $("explorer-status");
    status.classList.remove("error");
    status.textContent = "\u2026";
    try {
      const answer = await api("/api/explore", {
        fen: n.fen,
        variant: variantShown(),
        moves: 30,
        topGames: 8,
        recentGames: 8,
        ...explorerFilters(),
      });
      if (asked !== exploreAsked) return;
      renderExplorer(answer);
    } catch (e) {
      if (asked !== exploreAsked) return;
      document.querySelector("#explorer-moves tbody").textContent = "";
      $("top-games").textContent = "";
      $("recent-games").textContent = "";
      status.textContent = e.message;
      status.classList.add("error");
    }
  }

  function bar(w, d, b) {
    const total = w + d + b;
    const div = el("div", "bar");
    if (!total) return div;
    for (const [cls, n] of [["w", w], ["d", d], ["b", b]]) {
      const pct = (100 * n) / total;
      const span = el("span", cls, pct >= 12 ? Math.round(pct) + "%" : "");
      span.style.width = pct + "%";
      div.append(span);
    }
    return div;
  }

  function renderExplorer(answer) {
    $("opening").textContent = answer.opening ? `${answer.opening.eco} ${answer.opening.name}` : "";
    const body = document.querySelector("#explorer-moves tbody");
    body.textContent = "";
    for (const m of answer.moves) {
      const tr = el("tr");
      tr.tabIndex = 0;
      tr.dataset.uci = m.uci;
      tr.dataset.san = m.san;
      const games = m.white + m.draws + m.black;
      const cell = el("td");
      cell.append(bar(m.white, m.draws, m.black));
      tr.append(el("td", "move", m.san), el("td", "", games.toLocaleString("en")), cell,
        el("td", "", m.averageRating || ""));
      body.append(tr);
    }
    const total = answer.white + answer.draws + answer.black;
    $("explorer-status").textContent = answer.moves.length
      ? `${total.toLocaleString("en")} games with a result here`
      : "No game of the collection played on from here.";
    for (const [id, games] of [["top-games", answer.topGames], ["recent-games", answer.recentGames]]) {
      const list = $(id);
      list.textContent = "";
      for (const g of games || []) {
        const when = g.month || g.year || "";
        const li = el("li", "", `${playerText(g.white)} \u2013 ${playerText(g.black)}, ${resultText(g.winner)}${when ? ", " + when : ""}`);
        li.dataset.id = g.id;
        li.tabIndex = 0;
        list.append(li);
      }
    }
  }

  document.querySelector("#explorer-moves tbody").addEventListener("click", (e) => {
    const tr = e.target.closest("tr");
    if (tr) play(tr.dataset.uci, tr.dataset.san);
  });
  for (const id of ["top-games", "recent-games"]) {
    $(id).addEventListener("click", (e) => {
      const li = e.target.closest("li");
      if (li && li.dataset.id !== undefined) openGame(+li.dataset.id, 0);
    });
  }
  $("explorer-filters").addEventListener("change", explore);

  // --- Links --------------------------------------------------------------------------

  // The address of what is shown: a game and a ply, or a line.
  function link() {
    const p = new URLSearchParams();
    if (shown && shown.kind === "game") {
      p.set("game", shown.id);
      const ply = NotateViewer.mainPly();
      if (ply > 0) p.set("ply", ply);
    } else if (shown) {
      if (shown.fen) p.set("fen", shown.fen);
      const ply = NotateViewer.mainPly();
      const moves = shown.play.slice(0, ply < 0 ? shown.play.length : ply);
      if (moves.length) p.set("play", moves.join(","));
      if (shown.variant) p.set("variant", shown.variant);
    }
    return "#" + p.toString();
  }

  function openLink() {
    const p = new URLSearchParams(location.hash.slice(1));
    if (p.has("game")) {
      openGame(+p.get("game"), +(p.get("ply") || 0));
      return true;
    }
    if (p.has("fen") || p.has("play")) {
      const play = (p.get("play") || "").split(",").filter(Boolean);
      openLine(p.get("fen") || "", play, p.get("variant") || "");
      return true;
    }
    return false;
  }

  NotateViewer.onShow(() => {
    picked = -1;
    $("link").href = link();
    explore();
    if ($("search").elements.here.checked) search(0);
  });

  // --- Wiring -------------------------------------------------------------------------

  // Rows and games picked with the keyboard: Enter (or Space) on one clicks it.
  document.addEventListener("keydown", (e) => {
    if ((e.key === "Enter" || e.key === " ") && e.target.matches("tr[tabindex], li[tabindex]")) {
      e.preventDefault();
      e.target.click();
    }
  });

  $("search").addEventListener("submit", (e) => {
    e.preventDefault();
    search(0);
  });
  $("search").addEventListener("reset", () => setTimeout(() => search(0), 0));
  $("page-prev").addEventListener("click", () => search(Math.max(0, list.offset - PAGE)));
  $("page-next").addEventListener("click", () => search(list.offset + PAGE));
  document.querySelector("#games-table tbody").addEventListener("click", (e) => {
    const tr = e.target.closest("tr");
    if (tr) openGame(+tr.dataset.id, 0);
  });
  $("games-here").addEventListener("click", () => {
    $("search").elements.here.checked = true;
    $("more").open = true;
    search(0);
  });
  $("setup").addEventListener("submit", (e) => {
    e.preventDefault();
    openLine($("setup-fen").value.trim(), [], variantShown());
  });
  $("start").addEventListener("click", () => openLine("", [], ""));
  $("copy-game").addEventListener("click", async () => {
    if (!shown || shown.kind !== "game") return;
    const text = await api(`/api/games/${shown.id}`, { format: about && about.game === "draughts" ? "pdn" : "pgn" });
    if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
  });
  window.addEventListener("hashchange", () => {
    if (location.hash !== $("link").getAttribute("href")) openLink();
  });

  let about = null;
  (async function start() {
    try {
      about = await api("/api/about");
      document.title = `notate serve \u00b7 ${about.games.toLocaleString("en")} games`;
      $("copy-game").textContent = about.game === "draughts" ? "Copy PDN" : "Copy PGN";
      const select = $("search").elements.variant;
      for (const v of about.variants) select.append(new Option(v, v));
    } catch (e) {
      $("count").textContent = e.message;
    }
    search(0);
    if (!openLink()) {
      const first = await api("/api/games", { limit: 1 }).catch(() => null);
      if (first && first.games.length) openGame(first.games[0].id, 0);
      else openLine("", [], "");
    }
  })();
})();
