// The review page's board, stepped by the move list, the graph, the buttons and the keys.
// Everything it shows comes from the JSON in #review-data, written by review_page.py:
// each position's cells, the move that led to it, its arrows and its words.
(() => {
  "use strict";
  const data = JSON.parse(document.getElementById("review-data").textContent);
  const last = data.positions.length - 1;
  const viewer = document.getElementById("viewer");
  const board = document.getElementById("live-board");
  const cells = data.names.map((_, cell) => document.getElementById("c" + cell));
  const arrows = document.getElementById("arrows");
  const caption = document.getElementById("caption");
  const line = document.getElementById("graph-cursor");
  const graph = line.ownerSVGElement;
  const list = document.getElementById("moves");
  const moves = Array.from(list.querySelectorAll("button"));
  let shown = 0;

  // What a screen reader says for the board: the cells of each side's pieces.
  function pieces(position) {
    const sides = [["w", "White"], ["b", "Black"]].map(([piece, side]) => {
      const names = data.names.filter((_, cell) => position[cell] === piece);
      return side + ": " + (names.length ? names.join(" ") : "none");
    });
    return "The board. " + sides.join("; ");
  }

  // Scroll the move list itself (never the page) so that a button is in sight.
  function reveal(button) {
    const top = button.offsetTop - list.offsetTop;
    if (top < list.scrollTop) {
      list.scrollTop = top;
    } else if (top + button.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + button.offsetHeight - list.clientHeight;
    }
  }

  // Show position `index` (kept within the game): board, arrows, words, graph, list.
  function show(index) {
    shown = Math.max(0, Math.min(last, index));
    const position = data.positions[shown];
    const move = data.moves[shown];
    cells.forEach((cell, at) => {
      const names = [];
      if (position[at] === "w" || position[at] === "b") names.push(position[at]);
      if (move && at === move[0]) names.push("from");
      if (move && at === move[1]) names.push("to");
      cell.setAttribute("class", names.join(" "));
    });
    arrows.innerHTML = data.arrows[shown];
    caption.textContent = data.texts[shown];
    board.setAttribute("aria-label", pieces(position));
    const x = String(data.graph.x0 + shown * data.graph.dx);
    line.setAttribute("x1", x);
    line.setAttribute("x2", x);
    const focused = moves.includes(document.activeElement);
    moves.forEach((button) => {
      const current = Number(button.dataset.i) === shown;
      button.toggleAttribute("aria-current", current);
      if (!current) return;
      reveal(button);
      if (focused) button.focus({preventScroll: true});  // the focus goes with the move
    });
    document.body.dataset.shown = String(shown);
  }

  // The position before the next (1) or previous (-1) marked move; where none: here.
  function marked(direction) {
    const ahead = data.bad.filter((index) => (index - shown) * direction > 0);
    if (!ahead.length) return shown;
    return direction > 0 ? Math.min(...ahead) : Math.max(...ahead);
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-i], button[data-step]");
    if (!button) return;
    if (button.dataset.step) {
      const step = button.dataset.step;
      show({start: 0, end: last}[step] ?? shown + Number(step));
    } else {
      show(Number(button.dataset.i));
      if (!viewer.contains(button)) viewer.scrollIntoView({block: "start"});
    }
  });

  graph.addEventListener("click", (event) => {
    const box = graph.getBoundingClientRect();
    const x = (event.clientX - box.left) / box.width * data.graph.width;
    show(Math.round((x - data.graph.x0) / data.graph.dx));
  });

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const inside = viewer.contains(document.activeElement);
    const steps = {
      ArrowLeft: () => shown - 1, ArrowRight: () => shown + 1,
      Home: () => 0, End: () => last,
      ArrowUp: () => (inside ? marked(-1) : null), ArrowDown: () => (inside ? marked(1) : null),
    };
    const target = event.key in steps ? steps[event.key]() : null;
    if (target === null) return;
    event.preventDefault();
    show(target);
  });

  show(0);
})();
