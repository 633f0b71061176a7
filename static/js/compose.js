/* Click-to-compose for the game page: vanilla JS, no build step.
 *
 * Pick a line by tapping one of its tiles, then tap line tiles and rack tiles in
 * the order of the new word.  The move field gets the explicit notation
 * (brackets for two-letter tiles, hyphens when every tile is one letter), and the
 * line tiles left out are marked: they go to your rack (a trade).  Exchange mode
 * picks rack tiles instead.  Everything here only fills the move field: the
 * server previews and checks the move.  The page works without this file.
 *
 * By keyboard the board is one tab stop and the rack another (a roving tabindex):
 * the arrow keys move between tiles and lines, Home and End to a line's ends,
 * Enter or Space picks; each tile is named with its line and place.  A hint of
 * any kind fills the move field.  After a move sent from this page, in any kind,
 * the keyboard goes where the player goes next (see focusAfterMove), never to
 * <body>.
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

  /* A tile's name for assistive technology: where it is, then its face. */
  function tileName(el) {
    var index = parseInt(el.getAttribute("data-index"), 10);
    var face = el.getAttribute("data-tile");
    if (el.getAttribute("data-where") === "line") {
      var number = el.closest(".line").getAttribute("data-line");
      return "Line " + number + ", tile " + (index + 1) + " of " + lineTiles(number).length + ": " + face;
    }
    return "Your rack, tile " + (index + 1) + " of " + rackTiles().length + ": " + face;
  }

  /* The tiles one tab stop holds: the board's, or the rack's. */
  function groupOf(el) {
    return el.getAttribute("data-where") === "line" ? $all('.board .tile[data-where="line"]') : rackTiles();
  }

  function rove(el) {
    groupOf(el).forEach(function (t) { t.setAttribute("tabindex", t === el ? "0" : "-1"); });
    el.focus();
  }

  /* Where an arrow key (or Home, End) goes from ``el``; null when nowhere. */
  function stepFrom(el, key) {
    var index = parseInt(el.getAttribute("data-index"), 10);
    if (el.getAttribute("data-where") === "rack") {
      var rack = rackTiles();
      var to = { ArrowLeft: index - 1, ArrowRight: index + 1, ArrowUp: index - 1, ArrowDown: index + 1, Home: 0, End: rack.length - 1 }[key];
      return rack[to] || null;
    }
    var number = parseInt(el.closest(".line").getAttribute("data-line"), 10);
    var here = lineTiles(number);
    if (key === "ArrowLeft") { return here[index - 1] || null; }
    if (key === "ArrowRight") { return here[index + 1] || null; }
    if (key === "Home") { return here[0]; }
    if (key === "End") { return here[here.length - 1]; }
    var lines = $all(".board .line[data-line]").map(function (l) { return parseInt(l.getAttribute("data-line"), 10); });
    var at = lines.indexOf(number);
    var step = key === "ArrowUp" ? -1 : 1;
    for (var i = at + step; i >= 0 && i < lines.length; i += step) {
      var there = lineTiles(lines[i]);
      if (there.length) { return there[Math.min(index, there.length - 1)]; }
    }
    return null;
  }

  function init() {
    reset("word");
    var live = document.getElementById("live");
    if (live) { live.setAttribute("data-compose-ready", ""); }
    var box = composer();
    if (!box) { return; }
    box.hidden = false;
    [$all('.board .tile[data-where="line"]'), rackTiles()].forEach(function (group) {
      group.forEach(function (el, i) {
        el.setAttribute("tabindex", i === 0 ? "0" : "-1");
        el.setAttribute("role", "button");
        el.setAttribute("aria-pressed", "false");
        el.setAttribute("aria-label", tileName(el));
        el.classList.add("pickable");
      });
    });
    render();
  }

  /* After a move sent from this page (its forms post to #live): the question
   * asked before it (its heading), or, when it was refused, the field holding
   * it; else the move box's heading, described by the notice that says what was
   * done (the game's status when there is no move box: the game is over for
   * the player).  Each has a stable id, so static/js/live.js keeps the focus
   * there when the page refreshes itself. */
  function focusAfterMove() {
    var target = document.getElementById("confirm-title");
    if (!target && document.getElementById("move-error")) {
      var call = $("#call input[type=text]");
      target = call && call.value ? call : field() || document.getElementById("move-error");
    }
    if (!target) {
      target = document.getElementById("compose-title") || $("#live .status");
      var notice = $("#live .notice");
      if (target && notice) {
        notice.id = notice.id || "move-result";
        target.setAttribute("aria-describedby", notice.id);
      }
    }
    if (!target) { return; }
    if (target.tabIndex < 0 && !target.hasAttribute("tabindex")) { target.setAttribute("tabindex", "-1"); }
    target.focus();
  }

  /* Whether ``elt`` (a request's source) is one of the page's own move forms:
   * inside #live and swapping it; the page's own refresh comes from elsewhere. */
  function sentFromPage(elt) {
    var live = document.getElementById("live");
    return !!(elt && elt.getAttribute && live && elt !== live && live.contains(elt) &&
      elt.getAttribute("hx-target") === "#live");
  }

  document.addEventListener("click", function (event) {
    if (activate(event.target)) { event.preventDefault(); }
  });
  document.addEventListener("keydown", function (event) {
    var tile = event.target.closest && event.target.closest(".tile.pickable");
    if (!tile) { return; }
    if (event.key === "Enter" || event.key === " ") {
      if (activate(tile)) { event.preventDefault(); }
      return;
    }
    if (/^(Arrow(Left|Right|Up|Down)|Home|End)$/.test(event.key)) {
      var next = stepFrom(tile, event.key);
      if (next) { rove(next); }
      event.preventDefault();
    }
  });
  // A move sent with htmx swaps the live part of the page: start afresh, at once
  // (static/js/live.js puts the focus back by id as soon as its swap is done).
  var moveRequest = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (sentFromPage(event.detail && event.detail.elt)) { moveRequest = event.detail.xhr; }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var live = document.getElementById("live");
    if (live && !live.hasAttribute("data-compose-ready")) { init(); }
    if (moveRequest && event.detail && event.detail.xhr === moveRequest) {
      moveRequest = null;
      focusAfterMove();
    }
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
