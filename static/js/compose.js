/* Click-to-compose for the game page: vanilla JS, no build step.
 *
 * Pick a line by tapping one of its tiles, then tap line tiles and rack tiles in
 * the order of the new word.  The move field gets the explicit notation
 * (brackets for two-letter tiles, hyphens when every tile is one letter), and the
 * line tiles left out are marked: they go to your rack (a trade).  Exchange mode
 * picks rack tiles instead.  Everything here only fills the move field: the
 * server previews and checks the move.  The page works without this file.
 */
(function () {
  "use strict";

  var state = { mode: "word", line: null, picks: [] };

  function $(sel, root) { return (root || document).querySelector(sel); }
  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

  function field() { return document.getElementById("notation"); }
  function composer() { return $("[data-composer]"); }
  function rackLimit() {
    var box = $("#compose");
    var n = box ? parseInt(box.getAttribute("data-rack-limit"), 10) : NaN;
    return isNaN(n) ? 2 : n;
  }

  /* The explicit form of a tile sequence, as the engine writes it. */
  function explicit(tiles) {
    var two = tiles.some(function (t) { return t.length === 2; });
    if (two) {
      return tiles.map(function (t) { return t.length === 2 ? "[" + t + "]" : t; }).join("");
    }
    if (tiles.length === 1) { return "[" + tiles[0] + "]"; }
    return tiles.join("-");
  }

  function lineTiles(number) {
    return $all('.board .line[data-line="' + number + '"] .tile[data-where="line"]');
  }
  function rackTiles() { return $all('.rack .tile[data-where="rack"]'); }

  function tileOf(pick) {
    if (pick.where === "line") { return lineTiles(state.line)[pick.index]; }
    return rackTiles()[pick.index];
  }

  function isPicked(where, index) {
    return state.picks.some(function (p) { return p.where === where && p.index === index; });
  }

  function setNotation(text) {
    var input = field();
    if (!input) { return; }
    input.value = text;
    // htmx previews on "input"; tell it the field changed.
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function say(text) {
    var trade = $("[data-trade]");
    if (trade) { trade.textContent = text; }
  }

  function render() {
    $all(".tile.picked, .tile.to-rack").forEach(function (el) {
      el.classList.remove("picked", "to-rack");
      el.removeAttribute("data-order");
      el.setAttribute("aria-pressed", "false");
    });
    $all(".board .line.selected").forEach(function (el) { el.classList.remove("selected"); });
    state.picks.forEach(function (p, i) {
      var el = tileOf(p);
      if (el) {
        el.classList.add("picked");
        el.setAttribute("data-order", String(i + 1));
        el.setAttribute("aria-pressed", "true");
      }
    });
    var word = $("[data-word]");
    var hint = $("[data-exchange-hint]");
    if (hint) { hint.hidden = state.mode !== "exchange"; }
    if (state.mode === "exchange") {
      var faces = state.picks.map(function (p) { return p.tile; });
      if (word) { word.textContent = faces.length ? "Exchange: " + faces.join(" ") : "Exchange: pick rack tiles."; }
      say("");
      return;
    }
    if (state.line === null) {
      if (word) { word.textContent = ""; }
      say("");
      return;
    }
    var line = $('.board .line[data-line="' + state.line + '"]');
    if (line) { line.classList.add("selected"); }
    var traded = [];
    lineTiles(state.line).forEach(function (el, i) {
      if (!isPicked("line", i)) {
        el.classList.add("to-rack");
        traded.push(el.getAttribute("data-tile"));
      }
    });
    var tiles = state.picks.map(function (p) { return p.tile; });
    if (word) {
      word.textContent = tiles.length
        ? "Line " + state.line + ": " + tiles.join(" ")
        : "Line " + state.line + ": tap tiles in the order of the new word.";
    }
    if (!tiles.length) {
      say("");
    } else if (traded.length) {
      say("Going to your rack (a trade): " + traded.join(", ") + ".");
    } else {
      say("Every tile of line " + state.line + " stays on the line.");
    }
  }

  function update() {
    render();
    if (state.mode === "exchange") {
      var faces = state.picks.map(function (p) { return p.tile; });
      setNotation(faces.length ? "exchange " + faces.join(" ") : "");
    } else if (state.line !== null && state.picks.length) {
      setNotation(state.line + " " + explicit(state.picks.map(function (p) { return p.tile; })));
    }
  }

  function reset(mode) {
    state = { mode: mode || "word", line: null, picks: [] };
  }

  function problem(text) {
    var box = $("[data-problem]");
    if (box) {
      box.textContent = text;
      box.hidden = !text;
    }
  }

  function pickLineTile(el) {
    if (state.mode === "exchange") { return; }
    var lineEl = el.closest(".line");
    var number = parseInt(lineEl.getAttribute("data-line"), 10);
    var index = parseInt(el.getAttribute("data-index"), 10);
    if (state.line !== number) {
      reset("word");
      state.line = number;
    }
    if (isPicked("line", index)) {
      removePick("line", index);
    } else {
      state.picks.push({ where: "line", index: index, tile: el.getAttribute("data-tile") });
    }
    problem("");
    update();
  }

  function pickRackTile(el) {
    var index = parseInt(el.getAttribute("data-index"), 10);
    if (isPicked("rack", index)) {
      removePick("rack", index);
      update();
      return;
    }
    if (state.mode === "word") {
      if (state.line === null) {
        problem("Pick a line first: tap one of its tiles.");
        return;
      }
      var used = state.picks.filter(function (p) { return p.where === "rack"; }).length;
      if (used >= rackLimit()) {
        problem("At most " + rackLimit() + " tiles from your rack may enter the line.");
        return;
      }
    }
    state.picks.push({ where: "rack", index: index, tile: el.getAttribute("data-tile") });
    problem("");
    update();
  }

  function removePick(where, index) {
    state.picks = state.picks.filter(function (p) { return !(p.where === where && p.index === index); });
  }

  function onAction(action) {
    if (action === "undo") {
      state.picks.pop();
      update();
      if (!state.picks.length) { setNotation(""); }
    } else if (action === "clear") {
      reset(state.mode === "exchange" ? "word" : state.mode);
      render();
      setNotation("");
    } else if (action === "exchange") {
      reset(state.mode === "exchange" ? "word" : "exchange");
      render();
      setNotation("");
    }
  }

  function activate(target) {
    var suggestion = target.closest("[data-suggest]");
    if (suggestion) {
      reset("word");
      render();
      setNotation(suggestion.getAttribute("data-suggest"));
      var input = field();
      if (input) { input.focus(); }
      return true;
    }
    if (!composer()) { return false; }
    var action = target.closest("[data-composer] [data-action]");
    if (action) {
      onAction(action.getAttribute("data-action"));
      return true;
    }
    var tile = target.closest(".tile[data-where]");
    if (!tile) { return false; }
    if (tile.getAttribute("data-where") === "line" && tile.closest(".board")) {
      pickLineTile(tile);
      return true;
    }
    if (tile.getAttribute("data-where") === "rack" && tile.closest(".rack")) {
      pickRackTile(tile);
      return true;
    }
    return false;
  }

  function init() {
    reset("word");
    var live = document.getElementById("live");
    if (live) { live.setAttribute("data-compose-ready", ""); }
    var box = composer();
    if (!box) { return; }
    box.hidden = false;
    $all('.board .tile[data-where="line"], .rack .tile[data-where="rack"]').forEach(function (el) {
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-pressed", "false");
      el.classList.add("pickable");
    });
    render();
  }

  document.addEventListener("click", function (event) {
    if (activate(event.target)) { event.preventDefault(); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") { return; }
    var tile = event.target.closest && event.target.closest(".tile.pickable");
    if (tile && activate(tile)) { event.preventDefault(); }
  });
  // A move sent with htmx swaps the live part of the page: start afresh.
  document.addEventListener("htmx:afterSettle", function () {
    var live = document.getElementById("live");
    if (live && !live.hasAttribute("data-compose-ready")) { init(); }
  });
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail && event.detail.xhr;
    problem(xhr && xhr.responseText ? xhr.responseText : "The server could not take this request; reload the page.");
  });
  document.addEventListener("htmx:sendError", function () {
    problem("The server could not be reached: check your connection and try again.");
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
