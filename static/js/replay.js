/* The replay page (games/replay.html): the arrow keys step back and forward, Home
 * and End go to the deal and the last move, by following the page's own links (htmx
 * boosts them, so only the replay is swapped).  After each step the new step is
 * said to screen readers, the log shows its entry, and focus stays in the steps.
 * Without this script every step is a plain link. */
(function () {
  "use strict";

  var KEYS = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };

  function typing(target) {
    var tag = target && target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable);
  }

  document.addEventListener("keydown", function (event) {
    var id = KEYS[event.key];
    if (!id || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || typing(event.target)) {
      return;
    }
    var link = document.getElementById(id);
    event.preventDefault();  // Home and End would scroll the page
    if (link && link.tagName === "A") { link.click(); }
  });

  function settled() {
    var where = document.getElementById("replay-where");
    var said = document.querySelector("[data-replay-said]");
    var now = document.querySelector("#replay .replay-now");
    if (said && where && now) { said.textContent = where.textContent + ": " + now.textContent; }
    var current = document.querySelector(".replay-log li.current");
    if (current && current.scrollIntoView) { current.scrollIntoView({ block: "nearest" }); }
    // A step link that had the focus and is gone (no "Next" at the last move) would
    // leave it nowhere: it goes to the step instead.
    if (where && focusWasInReplay && (document.activeElement === document.body || !document.activeElement)) {
      where.focus();
    }
    focusWasInReplay = false;
  }

  var focusWasInReplay = false;
  document.addEventListener("htmx:beforeSwap", function () {
    var replay = document.getElementById("replay");
    focusWasInReplay = !!(replay && replay.contains(document.activeElement));
  });

  function init() {
    var keys = document.querySelector("[data-replay-keys]");
    if (keys) { keys.hidden = false; }
  }

  document.addEventListener("htmx:afterSettle", settled);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
