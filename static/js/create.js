/* The new-game form (games/create.html): changing the rules preset refills the
 * options still at the old preset's values; options the player changed stay.
 * Without this script the server does the same when the form is sent. */
(function () {
  var form = document.getElementById("create-game");
  var presets = JSON.parse(document.getElementById("preset-options").textContent);
  var from = form.elements["options_from"];
  var preset = form.elements["preset"];
  function get(name) {
    var el = form.elements[name];
    if (el.type === "checkbox") return el.checked;
    if (el.type === "number") return Number(el.value);
    return el.value;  // a select, or a RadioNodeList
  }
  function set(name, value) {
    var el = form.elements[name];
    if (el.type === "checkbox") el.checked = value;
    else el.value = String(value);
  }
  preset.addEventListener("change", function () {
    var old = presets[from.value || "official"], next = presets[preset.value];
    if (!old || !next) return;
    Object.keys(next).forEach(function (name) {
      if (form.elements[name] && get(name) === old[name]) set(name, next[name]);
    });
    from.value = preset.value;
  });
})();
