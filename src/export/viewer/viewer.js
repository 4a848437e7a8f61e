// The Salta game viewer: steps through the games embedded in this page.
//
// The page (written by src/export/viewer.rs) holds three JSON data elements: "games", the games
// exactly as `salta convert --to json` writes them; "views", what the page needs besides (board,
// start position, notation, unplayable moves, diagnostics tied to moves); "boards", the empty
// boards drawn by the diagram scene with the centre of every square. Pieces are SVG <g> elements
// drawn once each (id "salta-g3": Green's piece 3) and placed on the board with <use>.
//
// Moves are numbered in pre-order, as views.unplayed and diagnostics[].node count them: a move,
// then each of its variations, then the next move.
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const data = (id) => JSON.parse($(id).textContent);
  const games = data("games");
  const views = data("views");
  const boards = data("boards");

  const state = { game: -1, node: -1, flip: boards.flip, tree: null };

  // ---- Positions -------------------------------------------------------------------------

  // A Setup line ("G/11,12,-,…/105,…/7") as the game's pieces and their squares.
  function parseSetup(line, board) {
    const parts = line.split("/");
    const pieces = [];
    const squares = [];
    [["green", "g", parts[1]], ["red", "r", parts[2]]].forEach(([color, letter, list]) => {
      (list || "").split(",").forEach((entry, id) => {
        const glyph = board === "pyramid" ? `pyramid-${letter}` : `salta-${letter}${id}`;
        pieces.push({ color, id, glyph });
        squares.push(entry === "" || entry === "-" ? null : Number(entry));
      });
    });
    return { side: parts[0] === "R" ? "red" : "green", pieces, squares };
  }

  // The squares after `move` (nothing is captured in Salta: a move relocates one piece).
  function play(squares, move) {
    const after = squares.slice();
    if (move.kind === "pass") return after;
    const i = move.from ? after.indexOf(move.from.numeric) : -1;
    if (i < 0 || !move.to) return null;
    after[i] = move.to.numeric;
    return after;
  }

  // The game's moves as a flat list in pre-order, each with the position after it.
  function buildTree(game, view) {
    const start = parseSetup(view.start, view.board);
    const unplayed = new Set(view.unplayed);
    const nodes = [];
    const squaresAt = (i) => (i < 0 ? start.squares : nodes[i].squares);
    function line(moves, before, depth) {
      const indices = [];
      let prev = before;
      for (const move of moves) {
        const index = nodes.length;
        const last = indices.length ? nodes[indices[indices.length - 1]] : null;
        // After a justified "Salta!" the correction is played from where the called move began.
        const from = last && last.move.salta_called ? last.before : prev;
        const playable = !unplayed.has(index) && (from < 0 || nodes[from].squares !== null);
        const node = { index, move, before: from, prev, depth, next: -1, variations: [] };
        node.squares = playable ? play(squaresAt(from), move) : null;
        nodes.push(node);
        if (last) last.next = index;
        indices.push(index);
        node.variations = (move.variations || []).map((v) => ({
          comments: v.comments || [],
          nodes: line(v.moves, from, depth + 1),
        }));
        prev = index;
      }
      return indices;
    }
    const main = line(game.moves, -1, 0);
    return { start, nodes, main, squaresAt };
  }

  const other = (side) => (side === "green" ? "red" : "green");
  const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

  function sideToMove(tree, i) {
    if (i < 0) return tree.start.side;
    const move = tree.nodes[i].move;
    // A called move is taken back: the same side moves again.
    return move.salta_called ? move.side : other(move.side);
  }

  // ---- Move text ---------------------------------------------------------------------------

  const NAGS = { $1: "!", $2: "?", $3: "!!", $4: "??", $5: "!?", $6: "?!" };

  function moveText(move, notation) {
    // A move the reader could not read, as written (it changes nothing on the board).
    if (move.written) return move.written;
    if (move.kind === "pass") return "--";
    const sep = move.kind === "step" ? "-" : ":";
    const square = (s) => (notation === "algebraic" && s.algebraic ? s.algebraic : String(s.numeric));
    const to = move.to ? square(move.to) : "?";
    if (notation === "piece" && move.piece) return move.piece + sep + to;
    return (move.from ? square(move.from) : move.piece || "") + sep + to;
  }

  function fullMoveText(move, notation) {
    let text = moveText(move, notation);
    if (move.salta_called) text += " Salta!";
    for (const a of move.annotations || []) text += NAGS[a] || (a.startsWith("$") ? ` ${a}` : a);
    return text;
  }

  function numberText(move) {
    if (move.number === undefined) return "";
    return move.side === "red" ? `${move.number}…` : `${move.number}.`;
  }

  // ---- Page parts ----------------------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const c of children) e.append(c);
    return e;
  }

  const tag = (game, name) => game.tags[name];
  // "Green – Red", or the event when the record names no players.
  function title(game, i) {
    const [green, red] = [tag(game, "Green"), tag(game, "Red")];
    if (green || red) return `${green || "?"} – ${red || "?"}`;
    return tag(game, "Event") || `Game ${i + 1}`;
  }

  function renderGameList() {
    const list = $("game-list");
    games.forEach((game, i) => {
      const facts = [tag(game, "Event"), tag(game, "Site"), tag(game, "Date")]
        .filter((f) => f && f !== title(game, i));
      const button = el("button", { type: "button", "data-game": String(i) },
        el("span", { class: "players" }, `${i + 1}. ${title(game, i)}`),
        el("span", { class: "facts" }, facts.join(", ")),
        el("span", { class: "result" }, game.result));
      if (views[i].status === "invalid") button.append(el("span", { class: "badge" }, "invalid"));
      button.addEventListener("click", () => show(i, -1));
      const item = el("li", {}, button);
      item.dataset.search = [title(game, i), game.result, views[i].status, ...Object.values(game.tags)]
        .join(" ").toLowerCase();
      list.append(item);
    });
    $("game-nav").hidden = games.length < 2;
    filterGames();
    $("filter").addEventListener("input", filterGames);
  }

  function filterGames() {
    const words = $("filter").value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const item of $("game-list").children) {
      item.hidden = !words.every((w) => item.dataset.search.includes(w));
      if (!item.hidden) shown += 1;
    }
    $("game-count").textContent = `${shown} of ${games.length} games`;
  }

  function renderTags(game, view, i) {
    const header = $("tags");
    header.replaceChildren();
    header.append(el("h1", {}, title(game, i)));
    const facts = ["Event", "Site", "Round", "Date"].map((n) => tag(game, n))
      .filter((f) => f && f !== title(game, i));
    if (facts.length) header.append(el("p", { class: "facts" }, facts.join(" · ")));
    const shown = new Set(["Green", "Red", "Event", "Site", "Round", "Date"]);
    const rest = el("dl", {});
    for (const [name, value] of Object.entries(game.tags)) {
      if (!shown.has(name)) rest.append(el("div", {}, el("dt", {}, name), el("dd", {}, value)));
    }
    rest.append(el("div", {}, el("dt", {}, "File"), el("dd", {}, `${view.file}, line ${view.line}`)));
    header.append(rest);
  }

  function diagnosticText(d) {
    return `${d.message}${d.help ? ` (${d.help})` : ""}`;
  }

  function renderProblems(tree, view) {
    const box = $("problems");
    box.replaceChildren();
    if (!view.diagnostics.length) return;
    const errors = view.diagnostics.filter((d) => d.severity === "error").length;
    box.className = errors ? "problems invalid" : "problems";
    let lastPly = 0;
    for (let i = tree.main.length - 1; i >= 0; i--) {
      const node = tree.nodes[tree.main[i]];
      if (node.squares) { lastPly = node.move.ply; break; }
    }
    const summary = errors
      ? `This record does not replay: ${errors} error${errors > 1 ? "s" : ""}.` +
        (tree.main.some((i) => !tree.nodes[i].squares) ? ` The board stops at ply ${lastPly}.` : "")
      : "The replay has warnings.";
    box.append(el("p", { class: "summary" }, summary));
    const list = el("ul", {});
    view.diagnostics.forEach((d) => {
      const item = el("li", { class: d.severity },
        el("span", { class: "where" }, `line ${d.line}:${d.column}`), " ",
        el("code", {}, d.code), " ", diagnosticText(d));
      list.append(item);
    });
    box.append(list);
  }

  function renderMoves(game, tree, view) {
    const box = $("moves");
    box.replaceChildren();
    const notes = new Map();
    view.diagnostics.forEach((d) => {
      if (d.node !== null) notes.set(d.node, [...(notes.get(d.node) || []), d]);
    });
    const comments = (parent, texts) => {
      for (const text of texts) parent.append(" ", el("span", { class: "comment" }, text), " ");
      return texts.length > 0;
    };
    function line(parent, indices) {
      let needNumber = true;
      for (const i of indices) {
        const node = tree.nodes[i];
        const move = node.move;
        // A move and its number stay on one line.
        const pair = el("span", { class: "pair" });
        if (move.side === "green" || needNumber) {
          const number = numberText(move);
          if (number) pair.append(el("span", { class: "number" }, number), " ");
        }
        const text = fullMoveText(move, view.notation);
        const label = move.number === undefined ? text :
          `${move.number}, ${capital(move.side)}: ${text}`;
        const found = notes.get(i) || [];
        const attrs = { class: "move", "data-node": String(i) };
        if (found.some((d) => d.severity === "error")) attrs.class += " error";
        if (found.length) attrs["aria-describedby"] = `note-${i}`;
        let item;
        if (node.squares) {
          item = el("button", { ...attrs, type: "button", "aria-label": `Move ${label}` }, text);
          item.addEventListener("click", () => show(state.game, i));
        } else {
          attrs.class += " unplayed";
          item = el("span", { ...attrs, title: "not played: the replay stopped before it" }, text);
        }
        pair.append(item);
        parent.append(pair, " ");
        if (found.length) {
          parent.append(el("span", { class: "note", id: `note-${i}`, role: "note" },
            found.map(diagnosticText).join(" ")), " ");
        }
        needNumber = comments(parent, move.comments || []);
        for (const v of node.variations) {
          const block = node.depth === 0;
          const box = el(block ? "div" : "span", { class: "variation" });
          if (!block) box.append("(");
          comments(box, v.comments);
          line(box, v.nodes);
          if (box.lastChild.nodeValue === " ") box.lastChild.remove();
          if (!block) box.append(")");
          parent.append(box, " ");
          needNumber = true;
        }
      }
    }
    const main = el("div", { class: "line" });
    comments(main, game.comments || []);
    line(main, tree.main);
    box.append(main);
    const o = game.outcome;
    let outcome = game.result;
    if (o) {
      outcome += o.winner ? ` · ${capital(o.winner)} wins` : " ·";
      if (o.margin !== null && o.margin !== undefined) outcome += ` by ${o.margin}`;
      outcome += ` (${o.reason})`;
    }
    $("outcome").textContent = outcome;
  }

  // ---- The board -----------------------------------------------------------------------------

  function drawBoard() {
    const view = views[state.game];
    const tree = state.tree;
    const board = boards[view.board][state.flip ? 1 : 0];
    const host = $("board");
    const key = `${view.board}-${state.flip}`;
    if (host.dataset.key !== key) {
      host.innerHTML = board.svg;
      host.dataset.key = key;
    }
    const svg = host.querySelector("svg");
    const marks = svg.querySelector(".marks");
    const pieces = svg.querySelector(".pieces");
    marks.replaceChildren();
    pieces.replaceChildren();
    const squares = tree.squaresAt(state.node);
    const move = state.node >= 0 ? tree.nodes[state.node].move : null;
    if (move && move.kind !== "pass") {
      for (const square of [move.from.numeric, move.to.numeric]) {
        const [x, y] = board.centres[square];
        const half = board.square / 2;
        const tint = { class: "last-move", x: x - half, y: y - half, width: board.square,
          height: board.square, fill: board.highlight, "fill-opacity": board.highlight_opacity };
        const e = board.highlight_edge_width;
        const edge = { class: "last-move-edge", x: x - half + e / 2, y: y - half + e / 2,
          width: board.square - e, height: board.square - e, fill: "none",
          stroke: board.highlight_edge, "stroke-width": e };
        for (const attrs of [tint, edge]) {
          const rect = document.createElementNS(SVG, "rect");
          for (const [k, v] of Object.entries(attrs)) rect.setAttribute(k, v);
          marks.append(rect);
        }
      }
    }
    tree.start.pieces.forEach((piece, i) => {
      const square = squares[i];
      if (square === null) return;
      const [x, y] = board.centres[square];
      const use = document.createElementNS(SVG, "use");
      use.setAttribute("href", `#${piece.glyph}`);
      use.setAttribute("x", x);
      use.setAttribute("y", y);
      use.setAttribute("class", `piece ${piece.color}`);
      use.setAttribute("data-piece", `${piece.color[0]}${piece.id}`);
      use.setAttribute("data-square", square);
      pieces.append(use);
    });
    host.dataset.side = sideToMove(tree, state.node);
    $("flip").setAttribute("aria-pressed", String(state.flip));
  }

  // ---- Navigation ----------------------------------------------------------------------------

  function fragment() {
    if (state.node < 0) return `#g${state.game + 1}p0`;
    const node = state.tree.nodes[state.node];
    return node.depth === 0 ? `#g${state.game + 1}p${node.move.ply}` : `#g${state.game + 1}m${state.node}`;
  }

  function describe() {
    const tree = state.tree;
    const side = capital(sideToMove(tree, state.node));
    if (state.node < 0) return `Start position. ${side} to move.`;
    const node = tree.nodes[state.node];
    const move = node.move;
    const where = node.depth ? ` (variation)` : "";
    const text = `${numberText(move)} ${fullMoveText(move, views[state.game].notation)}`;
    return `Ply ${move.ply}${where}: ${text}. ${side} to move.`;
  }

  // Shows game `g` at node `i` (-1: the start).
  function show(g, i) {
    if (g !== state.game) {
      state.game = g;
      state.tree = buildTree(games[g], views[g]);
      renderTags(games[g], views[g], g);
      renderProblems(state.tree, views[g]);
      renderMoves(games[g], state.tree, views[g]);
      for (const b of $("game-list").querySelectorAll("button")) {
        b.toggleAttribute("aria-current", Number(b.dataset.game) === g);
      }
    }
    state.node = i;
    drawBoard();
    for (const b of $("moves").querySelectorAll("[aria-current]")) b.removeAttribute("aria-current");
    if (i >= 0) {
      const current = $("moves").querySelector(`[data-node="${i}"]`);
      current.setAttribute("aria-current", "step");
      current.scrollIntoView({ block: "nearest" });
    }
    $("status").textContent = describe();
    history.replaceState(null, "", fragment());
  }

  const playableIn = (tree, i) => i >= 0 && i < tree.nodes.length && tree.nodes[i].squares !== null;
  const playable = (i) => playableIn(state.tree, i);

  function step(direction) {
    const tree = state.tree;
    if (direction < 0) {
      if (state.node >= 0) show(state.game, tree.nodes[state.node].prev);
      return;
    }
    const next = state.node < 0 ? (tree.main.length ? tree.main[0] : -1) : tree.nodes[state.node].next;
    if (playable(next)) show(state.game, next);
  }

  function toEnd() {
    let i = state.node;
    for (;;) {
      const next = i < 0 ? (state.tree.main.length ? state.tree.main[0] : -1) : state.tree.nodes[i].next;
      if (!playable(next)) break;
      i = next;
    }
    show(state.game, i);
  }

  function flip() {
    state.flip = !state.flip;
    drawBoard();
  }

  // "#g2p31": game 2 after ply 31 of its main line; "#g2m57": game 2 at move 57 in pre-order.
  function openFragment() {
    const m = /^#g(\d+)(?:p(\d+)|m(\d+))?$/.exec(location.hash);
    const g = m ? Number(m[1]) - 1 : 0;
    if (!(g >= 0 && g < games.length)) return show(0, -1);
    const tree = state.game === g ? state.tree : buildTree(games[g], views[g]);
    let node = -1;
    if (m && m[2] !== undefined) {
      const ply = Number(m[2]);
      for (const i of tree.main) if (playableIn(tree, i) && tree.nodes[i].move.ply <= ply) node = i;
    } else if (m && m[3] !== undefined && playableIn(tree, Number(m[3]))) {
      node = Number(m[3]);
    }
    show(g, node);
  }

  $("first").addEventListener("click", () => show(state.game, -1));
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("last").addEventListener("click", toEnd);
  $("flip").addEventListener("click", flip);
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select") || event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => show(state.game, -1),
      End: toEnd, f: flip };
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });
  window.addEventListener("hashchange", openFragment);

  renderGameList();
  if (games.length) openFragment();
  performance.mark("salta-ready");
  document.documentElement.dataset.ready = "true";
})();
