/* The game page keeps itself current: vanilla JS, no build step.
 *
 * The page's live part (#live) names its game's live stream (data-stream), a
 * server-sent events stream that says "changed" with the game's version when a
 * move, a message or a claim window changes it.  The page then fetches its own
 * live part again (data-page, as htmx does) and swaps it in, keeping what the
 * player was writing and where the keyboard was.  Each stream ends after a few
 * minutes with "bye"; the next one says whether the player used the page lately
 * (?active=1), which keeps their "your turn" emails waiting while they play here.
 * A browser without EventSource, or a stream refused, leaves the page's 30 s poll.
 */
(function () {
  "use strict";
  if (window.gameLive) { return; }
  window.gameLive = true;

  var ACTIVE_MS = 5 * 60 * 1000;
  var lastActive = Date.now();
  var source = null;
  var refreshing = false;
  var again = false;

  ["keydown", "pointerdown", "input", "focusin"].forEach(function (name) {
    document.addEventListener(name, function () { lastActive = Date.now(); }, true);
  });

  function live() { return document.getElementById("live"); }

  function active() {
    return document.visibilityState === "visible" && Date.now() - lastActive < ACTIVE_MS;
  }

  /* What the player is writing in the live part, and where the keyboard is. */
  function keep(part) {
    var kept = { values: {}, focus: null, start: null, end: null };
    Array.prototype.forEach.call(part.querySelectorAll("input[id], textarea[id]"), function (field) {
      if (field.type !== "hidden" && field.type !== "checkbox" && field.value !== field.defaultValue) {
        kept.values[field.id] = field.value;
      }
    });
    var focused = document.activeElement;
    if (focused && focused.id && part.contains(focused)) {
      kept.focus = focused.id;
      try { kept.start = focused.selectionStart; kept.end = focused.selectionEnd; } catch (e) { /* not a text field */ }
    }
    return kept;
  }

  function restore(kept) {
    Object.keys(kept.values).forEach(function (id) {
      var field = document.getElementById(id);
      if (field && field.value !== kept.values[id]) {
        field.value = kept.values[id];
        field.dispatchEvent(new Event("input", { bubbles: true }));
      }
    });
    if (kept.focus) {
      var field = document.getElementById(kept.focus);
      if (field) {
        field.focus();
        if (kept.start !== null && field.setSelectionRange) {
          try { field.setSelectionRange(kept.start, kept.end); } catch (e) { /* not a text field */ }
        }
      }
    }
  }

  function refresh(version) {
    var part = live();
    if (!part || part.getAttribute("data-version") === version) { return; }
    if (refreshing) { again = true; return; }
    refreshing = true;
    var kept = keep(part);
    window.htmx.ajax("GET", part.getAttribute("data-page"), { target: "#live", swap: "outerHTML" })
      .then(function () { restore(kept); })
      .finally(function () {
        refreshing = false;
        var now = live();
        if (again && now) { again = false; refresh(""); }
      });
  }

  function connect() {
    var part = live();
    if (!part || !window.EventSource || !window.htmx || !part.getAttribute("data-stream")) { return; }
    var url = part.getAttribute("data-stream") +
      "?seen=" + encodeURIComponent(part.getAttribute("data-version") || "") +
      "&active=" + (active() ? "1" : "0");
    source = new EventSource(url);
    source.addEventListener("changed", function (event) { refresh(event.data); });
    source.addEventListener("bye", function () { source.close(); source = null; connect(); });
    source.onerror = function () {
      if (source && source.readyState === EventSource.CLOSED) { source = null; }  /* the 30 s poll goes on */
    };
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { lastActive = Date.now(); }
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", connect);
  } else {
    connect();
  }
})();
