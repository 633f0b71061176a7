/* Placing tiles on the crossword board, for the game page: vanilla JS, no build step.
 *
 * Choose the first square (click it, or move with the arrow keys and press Enter;
 * Enter again, or the Across / down button, turns the word), then type letters or
 * click rack tiles.  A letter the rack lacks is played with a blank when there is one.
 * Letters already on the board are taken in, in parentheses, as the word passes them.
 * All this only writes the move field ("8H FA(C)TS"); the server previews and checks
 * the move, and the page works without this file.
 */
(function () {
  "use strict";
  if (window.xwComposerBound) { return; }
  window.xwComposerBound = true;

  var COLS = "ABCDEFGHIJKLMNO";
  var SIZE = 15;
  var st = { start: null, across: true, placed: [] };

  function $(sel, root) { return (root || document).querySelector(sel); }
  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function board() { return $("[data-xw-board]"); }
  function composer() { return $("[data-xw-composer]"); }
  function field() { return document.getElementById("notation"); }

  function cell(r, c) {
    if (r < 0 || c < 0 || r >= SIZE || c >= SIZE) { return null; }
    return $('td[data-square="' + (r + 1) + COLS[c] + '"]', board());
  }
  function where(td) {
    var name = td.getAttribute("data-square");
    return { r: parseInt(name, 10) - 1, c: COLS.indexOf(name.slice(-1)) };
  }
  function letterAt(r, c) { var td = cell(r, c); return td ? td.getAttribute("data-letter") : null; }
  function step(p, n) { return st.across ? { r: p.r, c: p.c + n } : { r: p.r + n, c: p.c }; }

  function rack() {
    return $all("[data-xw-rack]").map(function (b) { return b.getAttribute("data-xw-rack"); });
  }
  function used() {
    var taken = {};
    st.placed.forEach(function (t) { taken[t.tile] = (taken[t.tile] || 0) + 1; });
    return taken;
  }
  function left(tile) {
    var have = rack().filter(function (t) { return t === tile; }).length;
    return have - (used()[tile] || 0);
  }

  /* The whole word along the line, from the first board letter before the start
   * to the last one after the placed tiles: board letters in parentheses. */
  function notation() {
    if (!st.start) { return ""; }
    var p = st.start;
    while (letterAt(step(p, -1).r, step(p, -1).c)) { p = step(p, -1); }
    var first = p;
    var word = "";
    var i = 0;
    while (true) {
      var on = letterAt(p.r, p.c);
      if (on === null) { break; }
      if (on) { word += "(" + on + ")"; }
      else if (i < st.placed.length) { word += st.placed[i].letter; i += 1; }
      else { break; }
      p = step(p, 1);
    }
    word = word.replace(/\)\(/g, "");
    if (!word || st.placed.length === 0) { return ""; }
    var row = String(first.r + 1), col = COLS[first.c];
    return (st.across ? row + col : col + row) + " " + word;
  }

  function squaresOfPlaced() {
    var out = [], p = st.start, i = 0;
    while (p && i < st.placed.length) {
      var on = letterAt(p.r, p.c);
      if (on === null) { break; }
      if (!on) { out.push(cell(p.r, p.c)); i += 1; }
      p = step(p, 1);
    }
    return out;
  }

  function render() {
    $all("td.xw-start, td.xw-placed", board()).forEach(function (td) { td.classList.remove("xw-start", "xw-placed"); });
    if (st.start) { cell(st.start.r, st.start.c).classList.add("xw-start"); }
    squaresOfPlaced().forEach(function (td) { td.classList.add("xw-placed"); });
    var counts = used();
    $all("[data-xw-rack]").forEach(function (b) {
      var t = b.getAttribute("data-xw-rack");
      var n = counts[t] || 0;
      if (n > 0) { b.classList.add("used"); counts[t] = n - 1; } else { b.classList.remove("used"); }
    });
    var said = $("[data-xw-status]");
    if (said) {
      if (!st.start) { said.textContent = "Choose the first square of your word."; }
      else {
        var name = (st.start.r + 1) + COLS[st.start.c];
        var placed = st.placed.map(function (t) { return t.letter; }).join(" ");
        said.textContent = "From " + name + (st.across ? " across" : " down") + (placed ? ": " + placed : ": type the letters");
      }
    }
    var f = field();
    var text = notation();
    if (f && f.value !== text) {
      f.value = text;
      f.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }

  function place(letter) {
    if (!st.start) { return; }
    var upper = letter.toUpperCase();
    var tile = left(upper) > 0 ? upper : (left("?") > 0 ? "?" : null);
    if (!tile) { return; }
    st.placed.push({ tile: tile, letter: tile === "?" ? upper.toLowerCase() : upper });
    render();
  }

  function choose(td) {
    var p = where(td);
    if (st.start && st.start.r === p.r && st.start.c === p.c) { st.across = !st.across; }
    else { st.start = p; st.placed = []; }
    render();
  }

  function focusCell(td) {
    $all("td[data-square]", board()).forEach(function (c) { c.setAttribute("tabindex", "-1"); });
    td.setAttribute("tabindex", "0");
    td.focus();
  }

  function init() {
    var b = board(), box = composer();
    if (!b || !box || !field() || b.hasAttribute("data-xw-ready")) { return; }
    b.setAttribute("data-xw-ready", "");
    box.hidden = false;
    var cells = $all("td[data-square]", b);
    cells.forEach(function (td) { td.setAttribute("tabindex", "-1"); });
    (cell(7, 7) || cells[0]).setAttribute("tabindex", "0");
    b.setAttribute("aria-describedby", "xw-composer-help");
    st = { start: null, across: true, placed: [] };
    var said = $("[data-xw-status]");
    if (said) { said.textContent = "Choose the first square of your word."; }
  }

  document.addEventListener("click", function (e) {
    var t = e.target;
    if (!(t instanceof Element)) { return; }
    var td = t.closest("[data-xw-board] td[data-square]");
    if (td && composer()) { focusCell(td); choose(td); return; }
    var tile = t.closest("[data-xw-rack]");
    if (tile) {
      var face = tile.getAttribute("data-xw-rack");
      if (face === "?") {
        var letter = window.prompt("Which letter does the blank stand for?", "");
        if (letter && /^[A-Za-z]$/.test(letter)) {
          if (st.start) { st.placed.push({ tile: "?", letter: letter.toLowerCase() }); render(); }
        }
      } else { place(face); }
      return;
    }
    var action = t.closest("[data-xw-action]");
    if (action) {
      var what = action.getAttribute("data-xw-action");
      if (what === "direction") { st.across = !st.across; }
      if (what === "undo") { st.placed.pop(); }
      if (what === "clear") { st.start = null; st.placed = []; }
      render();
    }
  });

  document.addEventListener("keydown", function (e) {
    var td = e.target instanceof Element ? e.target.closest("[data-xw-board] td[data-square]") : null;
    if (!td || !composer()) { return; }
    var p = where(td);
    var moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    if (moves[e.key]) {
      var next = cell(p.r + moves[e.key][0], p.c + moves[e.key][1]);
      if (next) { focusCell(next); }
      e.preventDefault();
    } else if (e.key === "Enter" || e.key === " ") {
      choose(td);
      e.preventDefault();
    } else if (e.key === "Backspace") {
      st.placed.pop(); render();
      e.preventDefault();
    } else if (e.key === "Escape") {
      st.start = null; st.placed = []; render();
    } else if (/^[A-Za-z]$/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
      place(e.key);
      e.preventDefault();
    }
  });

  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", init);
  if (document.readyState !== "loading") { init(); }
})();
