/* Blockers' move widget on the game page: vanilla JS, no build step.
 *
 * Choose a tile of your rack (click, or Tab to it and press Enter or Space),
 * then a square of the board (click, or the arrow keys, Home and End to move
 * and Enter or Space to choose): the move field gets "7 at C7" and the server
 * previews it.  The move field always works alone: this file only fills it.
 * Loaded again when htmx swaps the page's live part, it binds once.
 */
(function () {
  "use strict";
  if (window.blockersCompose) { return; }
  window.blockersCompose = true;

  var chosen = null;

  function $all(sel) { return Array.prototype.slice.call(document.querySelectorAll(sel)); }
  function say(text) {
    var out = document.querySelector("[data-bk-said]");
    if (out) { out.textContent = text; }
  }
  function squares() { return $all("[data-pick-square]"); }

  function setNotation(text) {
    var input = document.getElementById("notation");
    if (!input) { return; }
    input.value = text;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function focusSquare(button) {
    squares().forEach(function (b) { b.setAttribute("tabindex", b === button ? "0" : "-1"); });
    button.focus();
  }

  function pickTile(button) {
    chosen = button.getAttribute("data-pick-tile");
    $all("[data-pick-tile]").forEach(function (b) {
      b.setAttribute("aria-pressed", b === button ? "true" : "false");
    });
    say("Tile " + chosen + " chosen: now choose a square (arrow keys move, Enter chooses).");
    var current = document.querySelector('[data-pick-square][tabindex="0"]') || squares()[40];
    if (current) { focusSquare(current); }
  }

  function pickSquare(button) {
    var square = button.getAttribute("data-pick-square");
    if (!chosen) { say("Choose a tile of your rack first, then " + square + "."); return; }
    setNotation(chosen + " at " + square);
    say("Move: " + chosen + " at " + square + ". Its preview is below the move field.");
  }

  function move(button, key) {
    var all = squares();
    var i = all.indexOf(button);
    var row = Math.floor(i / 9), col = i % 9;
    if (key === "ArrowUp") { row = Math.max(0, row - 1); }
    else if (key === "ArrowDown") { row = Math.min(8, row + 1); }
    else if (key === "ArrowLeft") { col = Math.max(0, col - 1); }
    else if (key === "ArrowRight") { col = Math.min(8, col + 1); }
    else if (key === "Home") { col = 0; }
    else if (key === "End") { col = 8; }
    else { return false; }
    focusSquare(all[row * 9 + col]);
    return true;
  }

  function init() {
    chosen = null;
    var all = squares();
    if (all.length !== 81) { return; }
    all.forEach(function (b, i) { b.setAttribute("tabindex", i === 40 ? "0" : "-1"); });
    $all("[data-bk-help]").forEach(function (p) { p.hidden = false; });
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target.closest) { return; }
    var tile = target.closest("[data-pick-tile]");
    if (tile) { pickTile(tile); return; }
    var square = target.closest("[data-pick-square]");
    if (square) { pickSquare(square); }
  });
  document.addEventListener("keydown", function (event) {
    var square = event.target.closest && event.target.closest("[data-pick-square]");
    if (square && move(square, event.key)) { event.preventDefault(); }
  });
  document.addEventListener("htmx:afterSettle", init);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
