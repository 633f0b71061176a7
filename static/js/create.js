/* The new-game form (games/create.html).
 * Choosing a game shows its rules and hides (and disables, so they are not
 * sent) every other game's; without this script the "Show this game's rules"
 * button asks the server for them.
 * Changing a game's rules preset refills its options still at the old preset's
 * values; options the player changed stay.  Without this script the server does
 * the same when the form is sent. */
(function () {
  var form = document.getElementById("create-game");
  var presets = JSON.parse(document.getElementById("preset-options").textContent);
  var sections = form.querySelectorAll("[data-kind-options]");

  function choose(kind) {
    sections.forEach(function (section) {
      var on = section.getAttribute("data-kind-options") === kind;
      section.hidden = !on;
      section.querySelectorAll("fieldset").forEach(function (set) { set.disabled = !on; });
    });
  }
  form.querySelectorAll("[data-kind-choice]").forEach(function (radio) {
    radio.addEventListener("change", function () { if (radio.checked) choose(radio.value); });
  });
  var show = form.querySelector("[data-show-kind]");
  if (show) show.hidden = true;

  sections.forEach(function (section) {
    var kind = section.getAttribute("data-kind-options");
    var from = section.querySelector("[name=options_from]");
    var preset = section.querySelector("[name=preset]");
    if (!from || !preset) return;
    function element(name) { return section.querySelectorAll("[name=" + name + "]"); }
    function get(name) {
      var els = element(name), el = els[0];
      if (el.type === "checkbox") return el.checked;
      if (el.type === "number") return Number(el.value);
      if (el.type === "radio") {
        for (var i = 0; i < els.length; i++) if (els[i].checked) return els[i].value;
        return "";
      }
      return el.value;  // a select
    }
    function set(name, value) {
      var els = element(name), el = els[0];
      if (el.type === "checkbox") el.checked = value;
      else if (el.type === "radio") els.forEach(function (r) { r.checked = r.value === String(value); });
      else el.value = String(value);
    }
    preset.addEventListener("change", function () {
      var own = presets[kind] || {};
      var old = own[from.value], next = own[preset.value];
      if (!old || !next) return;
      Object.keys(next).forEach(function (name) {
        if (element(name).length && get(name) === old[name]) set(name, next[name]);
      });
      from.value = preset.value;
    });
  });
})();
