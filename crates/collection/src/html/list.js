// The list of `notate html`'s games: the page's data holds every game; the one picked
// opens in the viewer (viewer.js).
(function () {
  const $ = (id) => document.getElementById(id);
  const data = (id) => JSON.parse($(id).textContent);
  // Each game's row: file, number, board, White, Black, Event, Date, Site, Round, result,
  // plies of the main line, errors.
  const GAMES = data("games");
  const FILES = data("files");
  const BOARDS = data("boards");
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };

  function open(index) {
    const r = GAMES[index];
    const g = JSON.parse($("g" + index).textContent);
    const board = g.b >= 0 ? BOARDS[g.b] : null;
    const where = [r[5], r[7], r[8] ? "round " + r[8] : "", r[6]].filter((s) => s && s !== "?");
    where.push(`${FILES[r[0]]} game ${r[1]}`, board ? board.name : "no board");
    NotateViewer.load({
      data: g,
      board,
      title: `${r[3] || "?"} \u2013 ${r[4] || "?"}  ${r[9]}`,
      subtitle: where.join(" \u00b7 "),
      result: r[9],
      file: FILES[r[0]],
    });
    for (const tr of document.querySelectorAll("tbody tr.selected")) tr.classList.remove("selected");
    const tr = rows[index];
    if (tr) tr.classList.add("selected");
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

  renderList();
  $("filter").addEventListener("input", filter);
  if (GAMES.length) open(0);
})();
