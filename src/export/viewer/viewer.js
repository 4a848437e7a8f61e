// The Salta game viewer: steps through the games embedded in this page.
//
// The page (written by src/export/viewer.rs) holds three JSON data elements: "games", the games
// exactly as `salta convert --to json` writes them; "views", what the page needs besides (board,
// start position, notation, the record's text, unplayable moves, diagnostics tied to moves);
// "boards", the empty boards drawn by the diagram scene with the centre of every square. Pieces
// are SVG <g> elements drawn once each (id "salta-g3": Green's piece 3) and placed with <use>.
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
  const pageTitle = document.title;

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
    return { side: parts[0] === "R" ? "red" : "green", number: Number(parts[3] || 1), pieces, squares };
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
    let end = -1;
    for (const i of main) if (nodes[i].squares !== null) end = i; else break;
    return { start, nodes, main, end, squaresAt };
  }

  const other = (side) => (side === "green" ? "red" : "green");
  const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

  function sideToMove(tree, i) {
    if (i < 0) return tree.start.side;
    const move = tree.nodes[i].move;
    // A called move is taken back: the same side moves again.
    return move.salta_called ? move.side : other(move.side);
  }

  // The position shown as a Setup line, as `salta convert --to setups` writes it.
  function setupLine(tree, i, board) {
    const squares = tree.squaresAt(i);
    const side = sideToMove(tree, i);
    const list = (color) => {
      const mine = tree.start.pieces.map((p, k) => [p, squares[k]]).filter(([p]) => p.color === color);
      if (board === "pyramid") {
        return mine.map(([, s]) => s).filter((s) => s !== null).sort((a, b) => a - b).join(",");
      }
      return mine.map(([, s]) => (s === null ? "-" : s)).join(",");
    };
    let number = tree.start.number;
    if (i >= 0) {
      const move = tree.nodes[i].move;
      const n = move.number === undefined ? Math.ceil(move.ply / 2) : move.number;
      number = !move.salta_called && move.side === "red" ? n + 1 : n;
    }
    return `${side === "red" ? "R" : "G"}/${list("green")}/${list("red")}${number !== 1 ? `/${number}` : ""}`;
  }

  // ---- Names -------------------------------------------------------------------------------

  const NAGS = { $1: "!", $2: "?", $3: "!!", $4: "??", $5: "!?", $6: "?!" };

  // A square as the record names it: its number (turned round for a record numbered from Red's
  // side) or, in an algebraic record, its letter and digit.
  function squareName(view, numeric, algebraic) {
    if (view.notation === "algebraic" && algebraic) return algebraic;
    return String(view.names ? view.names[numeric] : numeric);
  }

  function moveText(move, view) {
    // A move the reader could not read, as written (it changes nothing on the board).
    if (move.written) return move.written;
    if (move.kind === "pass") return "--";
    const sep = move.kind === "step" ? "-" : ":";
    const square = (s) => squareName(view, s.numeric, s.algebraic);
    const to = move.to ? square(move.to) : "?";
    if (view.notation === "piece" && move.piece) return move.piece + sep + to;
    return (move.from ? square(move.from) : move.piece || "") + sep + to;
  }

  function fullMoveText(move, view) {
    let text = moveText(move, view);
    if (move.salta_called) text += " Salta!";
    for (const a of move.annotations || []) text += NAGS[a] || (a.startsWith("$") ? ` ${a}` : a);
    return text;
  }

  function numberText(move) {
    if (move.number === undefined) return "";
    return move.side === "red" ? `${move.number}…` : `${move.number}.`;
  }

  // "Red's moon 5", "Green's piece" (Pyramid pieces are all alike).
  function pieceName(piece, board) {
    if (board === "pyramid") return `${capital(piece.color)}'s piece`;
    return `${capital(piece.color)}'s ${["star", "moon", "sun"][Math.floor(piece.id / 5)]} ${piece.id % 5 + 1}`;
  }

  // A result as a reader reads it: 1–0, 0–1, ½–½.
  function resultText(result) {
    return { "1-0": "1–0", "0-1": "0–1", "1/2-1/2": "½–½" }[result] || result;
  }

  // ---- Page parts ----------------------------------------------------------------------------

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const c of children) e.append(c);
    return e;
  }

  // Text with every move in it ("2. 43-44", "35-45") kept on one line.
  function proseWithMoves(text) {
    const span = el("span", {});
    const pattern = /(?:\d+(?:\.|…|\.\.\.)\s)?[A-Za-z]*\d+[-:][a-j]?\d+/g;
    let at = 0;
    for (const m of text.matchAll(pattern)) {
      span.append(text.slice(at, m.index), el("span", { class: "nowrap" }, m[0]));
      at = m.index + m[0].length;
    }
    span.append(text.slice(at));
    return span;
  }

  const tag = (game, name) => game.tags[name];
  // "Green – Red", or the event when the record names no players.
  function title(game, i) {
    const [green, red] = [tag(game, "Green"), tag(game, "Red")];
    if (green || red) return `${green || "?"} – ${red || "?"}`;
    return tag(game, "Event") || `Game ${i + 1}`;
  }

  function facts(game, i) {
    const round = tag(game, "Round");
    return [tag(game, "Event"), tag(game, "Site"), round && round !== "?" ? `round ${round}` : null,
      views[i].date]
      .filter((f) => f && f !== "?" && f !== title(game, i));
  }

  function renderGameList() {
    const list = $("game-list");
    games.forEach((game, i) => {
      const result = el("span", { class: game.result === "*" ? "result unfinished" : "result" },
        game.result === "*" ? "unfinished" : resultText(game.result));
      const button = el("button", { type: "button", "data-game": String(i) },
        el("span", { class: "players" }, `${i + 1}. ${title(game, i)}`),
        el("span", { class: "facts" }, facts(game, i).join(", ")),
        result);
      if (views[i].status === "invalid") button.append(el("span", { class: "badge" }, "invalid"));
      button.addEventListener("click", () => {
        show(i, -1);
        closeGames();
      });
      const item = el("li", {}, button);
      item.dataset.search = [title(game, i), resultText(game.result), views[i].status, views[i].date,
        ...Object.values(game.tags)].join(" ").toLowerCase();
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

  function openGames() {
    $("game-nav").classList.add("open");
    $("open-games").setAttribute("aria-expanded", "true");
    const current = $("game-list").querySelector("[aria-current]");
    if (current) current.scrollIntoView({ block: "center" });
    $("filter").focus();
  }

  function closeGames() {
    if (!$("game-nav").classList.contains("open")) return;
    $("game-nav").classList.remove("open");
    $("open-games").setAttribute("aria-expanded", "false");
    $("open-games").focus();
  }

  function renderTags(game, view, i) {
    $("title").textContent = title(game, i);
    $("facts").textContent = facts(game, i).join(" · ");
    document.title = games.length > 1 ? `${title(game, i)} · ${pageTitle}` : `${title(game, i)} · Salta`;
    const shown = new Set(["Green", "Red", "Event", "Site", "Round", "Date"]);
    const rest = $("tags");
    rest.replaceChildren();
    for (const [name, value] of Object.entries(game.tags)) {
      if (shown.has(name)) continue;
      const text = name === "Result" ? resultText(value) : value;
      rest.append(el("div", {}, el("dt", {}, name), el("dd", {}, text)));
    }
    $("about").hidden = !rest.children.length;
  }

  function diagnosticText(d) {
    return `${d.message}${d.help ? ` (${d.help})` : ""}`;
  }

  // The replay's findings above the moves; no box at all for a game without any.
  function renderProblems(tree, view) {
    const box = $("problems");
    box.replaceChildren();
    box.hidden = !view.diagnostics.length;
    if (box.hidden) return;
    const errors = view.diagnostics.filter((d) => d.severity === "error").length;
    box.className = errors ? "problems invalid" : "problems";
    const stops = tree.main.length && tree.end !== tree.main[tree.main.length - 1];
    const lastPly = tree.end < 0 ? 0 : tree.nodes[tree.end].move.ply;
    const summary = errors
      ? `This record does not replay: ${errors} error${errors > 1 ? "s" : ""}.` +
        (stops ? ` The board stops at ply ${lastPly}.` : "")
      : "The replay has warnings.";
    box.append(el("p", { class: "summary" }, summary));
    const list = el("ul", {});
    view.diagnostics.forEach((d) => {
      list.append(el("li", { class: d.severity },
        el("span", { class: "where" }, `line ${d.line}:${d.column}`), " ",
        el("code", {}, d.code), " ", proseWithMoves(diagnosticText(d))));
    });
    box.append(list);
  }

  // A move as a button (or, if the replay never reached it, as plain text).
  function moveItem(tree, view, notes, i) {
    const node = tree.nodes[i];
    const move = node.move;
    const text = fullMoveText(move, view);
    const label = move.number === undefined ? text : `${move.number}, ${capital(move.side)}: ${text}`;
    const found = notes.get(i) || [];
    const attrs = { class: "move", "data-node": String(i) };
    if (found.some((d) => d.severity === "error")) attrs.class += " error";
    if (found.length) attrs["aria-describedby"] = `note-${i}`;
    if (node.squares) {
      const item = el("button", { ...attrs, type: "button", "aria-label": `Move ${label}` }, text);
      item.addEventListener("click", () => show(state.game, i));
      return item;
    }
    attrs.class += " unplayed";
    return el("span", { ...attrs, title: "not played: the replay stopped before it" }, text);
  }

  function renderMoves(game, tree, view) {
    const notes = new Map();
    view.diagnostics.forEach((d) => {
      if (d.node !== null) notes.set(d.node, [...(notes.get(d.node) || []), d]);
    });
    const note = (i) => el("span", { class: "note", id: `note-${i}`, role: "note" },
      proseWithMoves((notes.get(i) || []).map(diagnosticText).join(" ")));

    // A variation as running text: "12… 84-75 13. 33-44 (13. 32-43) 84-73".
    function inline(parent, indices, comments) {
      const words = [];
      for (const text of comments) words.push(el("span", { class: "comment" }, text));
      let needNumber = true;
      for (const i of indices) {
        const node = tree.nodes[i];
        const move = node.move;
        const pair = el("span", { class: "pair" });
        const number = move.side === "green" || needNumber ? numberText(move) : "";
        if (number) pair.append(el("span", { class: "number" }, number), " ");
        pair.append(moveItem(tree, view, notes, i));
        words.push(pair);
        needNumber = false;
        if (notes.has(i)) { words.push(note(i)); needNumber = true; }
        for (const text of move.comments || []) {
          words.push(el("span", { class: "comment" }, text));
          needNumber = true;
        }
        for (const v of node.variations) {
          const nested = el("span", { class: "variation" }, "(");
          inline(nested, v.nodes, v.comments);
          nested.append(")");
          words.push(nested);
          needNumber = true;
        }
      }
      words.forEach((w, k) => parent.append(...(k ? [" ", w] : [w])));
    }

    // The main line as a table: a row per move number, Green's move then Red's.
    const table = el("div", { class: "moves-table" });
    for (const text of game.comments || []) table.append(el("div", { class: "lead comment" }, text));
    let open = false; // Green's cell of the last row is filled, Red's is not
    const closeRow = () => {
      if (open) table.append(el("span", { class: "blank", "aria-hidden": "true" }, "…"));
      open = false;
    };
    for (const i of tree.main) {
      const move = tree.nodes[i].move;
      if (move.side === "green" || !open) {
        closeRow();
        table.append(el("span", { class: "index" }, move.number === undefined ? "" : String(move.number)));
        if (move.side === "red") table.append(el("span", { class: "blank", "aria-hidden": "true" }, "…"));
      }
      table.append(moveItem(tree, view, notes, i));
      open = move.side === "green";
      const asides = [];
      if (notes.has(i)) asides.push(el("div", { class: "aside" }, note(i)));
      for (const text of move.comments || []) {
        asides.push(el("div", { class: "aside" }, el("span", { class: "comment" }, text)));
      }
      for (const v of tree.nodes[i].variations) {
        const line = el("span", { class: "variation" });
        inline(line, v.nodes, v.comments);
        asides.push(el("div", { class: "aside" }, line));
      }
      if (asides.length) {
        closeRow();
        table.append(...asides);
      }
    }
    closeRow();
    $("moves").replaceChildren(table);
    const o = game.outcome;
    const ends = view.status === "invalid" ? "." : ": the record ends here.";
    let outcome = game.result === "*" && !o ? `No result (*)${ends}` : resultText(game.result);
    if (o) {
      outcome += o.winner ? ` · ${capital(o.winner)} wins` : " · draw";
      if (o.margin !== null && o.margin !== undefined) outcome += ` by ${o.margin}`;
      outcome += ` (${o.reason})`;
    }
    $("outcome").textContent = outcome;
  }

  // ---- The board -----------------------------------------------------------------------------

  function boardOf(view) {
    return boards.boards[view.board_key][state.flip ? 1 : 0];
  }

  // The fill and edge of a side's pieces, as the glyphs draw them.
  function discOf(glyph) {
    const circle = document.querySelector(`#${glyph} circle`);
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "-10 -10 20 20");
    svg.setAttribute("class", "disc");
    svg.setAttribute("aria-hidden", "true");
    const disc = document.createElementNS(SVG, "circle");
    disc.setAttribute("r", "8.5");
    disc.setAttribute("fill", circle ? circle.getAttribute("fill") : "currentColor");
    disc.setAttribute("stroke", circle ? circle.getAttribute("stroke") || "none" : "none");
    disc.setAttribute("stroke-width", "1.5");
    svg.append(disc);
    return svg;
  }

  // The players at their ends of the board: Green's pieces start at the bottom, Red's at the
  // top (the other way round when the board is turned).
  function drawPlayers() {
    const game = games[state.game];
    const tree = state.tree;
    const ended = state.node === tree.end && game.outcome && tree.end === tree.main[tree.main.length - 1];
    const toMove = sideToMove(tree, state.node);
    for (const [id, side] of [["player-top", state.flip ? "green" : "red"], ["player-bottom", state.flip ? "red" : "green"]]) {
      const strip = $(id);
      const piece = tree.start.pieces.find((p) => p.color === side);
      const name = tag(game, capital(side));
      strip.replaceChildren(piece ? discOf(piece.glyph) : "",
        el("span", { class: "name" }, name || capital(side)));
      if (name) strip.append(el("span", { class: "side" }, capital(side)));
      if (ended) {
        if (game.outcome.winner === side) strip.append(el("span", { class: "turn" }, "wins"));
      } else if (toMove === side) {
        strip.append(el("span", { class: "turn" }, "to move"));
      }
    }
  }

  function drawBoard() {
    const view = views[state.game];
    const tree = state.tree;
    const board = boardOf(view);
    const host = $("board");
    const key = `${view.board_key}-${state.flip}`;
    if (host.dataset.key !== key) {
      host.innerHTML = board.svg;
      host.dataset.key = key;
      const box = host.querySelector("svg").viewBox.baseVal;
      document.documentElement.style.setProperty("--aspect", String(box.width / box.height));
      for (const number of host.querySelectorAll("text.number")) number.dataset.square = number.textContent;
    }
    const svg = host.querySelector("svg");
    svg.setAttribute("aria-describedby", "position");
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
    const occupied = new Set();
    tree.start.pieces.forEach((piece, i) => {
      const square = squares[i];
      if (square === null) return;
      occupied.add(square);
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
    // Square numbers show on the empty squares only (a disc would cover them), in the record's
    // own numbering.
    for (const number of svg.querySelectorAll("text.number")) {
      const square = Number(number.dataset.square);
      number.textContent = squareName(view, square);
      number.style.visibility = occupied.has(square) ? "hidden" : "";
    }
    host.dataset.side = sideToMove(tree, state.node);
    $("flip").setAttribute("aria-pressed", String(state.flip));
    drawPlayers();
    $("position").textContent = describePosition(view, board, squares);
  }

  // The position in words, for a screen reader: each side's pieces and their squares.
  function describePosition(view, board, squares) {
    const sides = ["green", "red"].map((color) => {
      const on = [];
      state.tree.start.pieces.forEach((piece, i) => {
        if (piece.color !== color || squares[i] === null) return;
        const square = squareName(view, squares[i], board.algebraic[squares[i]]);
        on.push(view.board === "pyramid" ? square : `${pieceName(piece, view.board).split(" ").slice(1).join(" ")} on ${square}`);
      });
      return `${capital(color)}: ${view.board === "pyramid" ? `pieces on ${on.join(", ")}` : on.join(", ")}.`;
    });
    return `The position. ${sides.join(" ")}`;
  }

  // ---- Navigation ----------------------------------------------------------------------------

  function fragment() {
    if (state.node < 0) return `#g${state.game + 1}p0`;
    const node = state.tree.nodes[state.node];
    return node.depth === 0 ? `#g${state.game + 1}p${node.move.ply}` : `#g${state.game + 1}m${state.node}`;
  }

  // The status line under the board, read out as it changes: the move shown, whose piece moved,
  // and who moves next or how the game ended.
  function describe() {
    const tree = state.tree;
    const game = games[state.game];
    const view = views[state.game];
    const side = capital(sideToMove(tree, state.node));
    if (state.node < 0) return `Start position: ${side} to move.`;
    const node = tree.nodes[state.node];
    const move = node.move;
    const number = numberText(move);
    const text = `${number ? `${number} ` : ""}${fullMoveText(move, view)}`;
    const before = tree.squaresAt(node.before);
    const k = move.from ? before.indexOf(move.from.numeric) : -1;
    const who = k >= 0 ? `, ${pieceName(tree.start.pieces[k], view.board)}` : "";
    const where = node.depth ? " in a variation" : "";
    const after = `After ${text} (ply ${move.ply}${who}${where})`;
    const last = tree.main.length && state.node === tree.main[tree.main.length - 1];
    if (last && game.outcome) {
      const o = game.outcome;
      const verdict = o.winner ? `${capital(o.winner)} wins${o.margin != null ? ` by ${o.margin}` : ""}` : "a draw";
      return `${after}: the game is over, ${resultText(game.result)}, ${verdict}.`;
    }
    return `${after}: ${side} to move.`;
  }

  // Scrolls the move list, and only it, so that `item` is in view.
  function reveal(item) {
    const area = $("moves-area");
    const a = area.getBoundingClientRect();
    const r = item.getBoundingClientRect();
    if (r.top < a.top) area.scrollTop += r.top - a.top - 8;
    else if (r.bottom > a.bottom) area.scrollTop += r.bottom - a.bottom + 8;
  }

  // Shows game `g` at node `i` (-1: the start).
  function show(g, i) {
    if (g !== state.game) {
      state.game = g;
      state.tree = buildTree(games[g], views[g]);
      renderTags(games[g], views[g], g);
      renderProblems(state.tree, views[g]);
      renderMoves(games[g], state.tree, views[g]);
      $("moves-area").scrollTop = 0;
      for (const b of $("game-list").querySelectorAll("button")) {
        b.toggleAttribute("aria-current", Number(b.dataset.game) === g);
      }
    }
    state.node = i;
    drawBoard();
    $("status").textContent = describe();
    for (const b of $("moves").querySelectorAll("[aria-current]")) b.removeAttribute("aria-current");
    if (i >= 0) {
      const current = $("moves").querySelector(`[data-node="${i}"]`);
      current.setAttribute("aria-current", "step");
      // The result under the last move, then the move itself if the list is too short for both.
      if (i === state.tree.main[state.tree.main.length - 1]) reveal($("outcome"));
      reveal(current);
    }
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

  // The next or previous game the filter shows.
  function otherGame(direction) {
    const items = [...$("game-list").children].filter((item) => !item.hidden);
    const at = items.findIndex((item) => Number(item.firstChild.dataset.game) === state.game);
    const item = items[at + direction];
    if (item) show(Number(item.firstChild.dataset.game), -1);
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

  // ---- Sharing -------------------------------------------------------------------------------

  function say(text) {
    $("share-said").textContent = text;
  }

  async function copy(text, what) {
    try {
      await navigator.clipboard.writeText(text);
      return say(`Copied ${what}.`);
    } catch (_) {
      // No clipboard permission (some browsers, for a file): copy through a selection.
    }
    const area = el("textarea", { class: "visually-hidden", readonly: "" });
    area.value = text;
    $("share").append(area);
    area.select();
    const copied = document.execCommand("copy");
    area.remove();
    say(copied ? `Copied ${what}.` : `Could not copy ${what}: select it and copy it by hand.`);
  }

  // What to call a download of game `g`: its file's name, with the game's place in the file
  // when the file holds more than one.
  function downloadName(g) {
    const file = views[g].file.split(/[\\/]/).pop() || "game";
    const stem = file.replace(/\.[^.]*$/, "") || "game";
    const same = views.map((v, k) => [v.file, k]).filter(([f]) => f === views[g].file).map(([, k]) => k);
    return same.length > 1 ? `${stem}-game${same.indexOf(g) + 1}.sgn` : `${stem}.sgn`;
  }

  let downloadUrl = null;
  function openShare() {
    const view = views[state.game];
    $("share-setup").value = setupLine(state.tree, state.node, view.board);
    if (downloadUrl) URL.revokeObjectURL(downloadUrl);
    downloadUrl = URL.createObjectURL(new Blob([view.record], { type: "text/plain;charset=utf-8" }));
    $("download").href = downloadUrl;
    $("download").download = downloadName(state.game);
    say("");
    $("share").showModal();
  }

  // ---- Input ---------------------------------------------------------------------------------

  $("first").addEventListener("click", () => show(state.game, -1));
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("last").addEventListener("click", toEnd);
  $("flip").addEventListener("click", flip);
  $("open-help").addEventListener("click", () => $("help").showModal());
  $("open-share").addEventListener("click", openShare);
  $("open-games").addEventListener("click", openGames);
  $("close-games").addEventListener("click", closeGames);
  $("copy-link").addEventListener("click", () => copy(location.href, "the link"));
  $("copy-setup").addEventListener("click", () => copy($("share-setup").value, "the Setup line"));
  $("copy-record").addEventListener("click", () => copy(views[state.game].record, "the record"));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && $("game-nav").classList.contains("open")) return closeGames();
    if (document.querySelector("dialog[open]")) return;
    if (event.target.closest("input, textarea, select") || event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => show(state.game, -1),
      End: toEnd, ArrowUp: () => show(state.game, -1), ArrowDown: toEnd, f: flip, F: flip,
      s: openShare, S: openShare, "?": () => $("help").showModal(), j: () => otherGame(1), k: () => otherGame(-1),
      g: () => ($("game-nav").hidden ? null : window.matchMedia("(max-width: 60rem)").matches ? openGames() : $("filter").focus()) };
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });
  // A swipe across the board steps through the game, as on a phone's viewer.
  let touch = null;
  $("board-box").addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "mouse") touch = [e.clientX, e.clientY];
  });
  $("board-box").addEventListener("pointerup", (e) => {
    if (!touch) return;
    const [dx, dy] = [e.clientX - touch[0], e.clientY - touch[1]];
    touch = null;
    if (Math.abs(dx) > 40 && Math.abs(dx) > 1.5 * Math.abs(dy)) step(dx < 0 ? 1 : -1);
  });
  $("board-box").addEventListener("pointercancel", () => { touch = null; });
  window.addEventListener("hashchange", openFragment);

  renderGameList();
  if (games.length) openFragment();
  performance.mark("salta-ready");
  document.documentElement.dataset.ready = "true";
})();
