// The report's filters, search, keyboard navigation and the chunk texts shown on demand.
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var claims = Array.prototype.slice.call(document.querySelectorAll("article.claim"));
  var answers = Array.prototype.slice.call(document.querySelectorAll("section.answer"));
  var failing = $("f-failing"), code = $("f-code"), source = $("f-source"), search = $("f-search");
  var texts = null, timer = null;
  function apply() {
    var q = search.value.trim().toLowerCase(), c = code.value, s = source.value, only = failing.checked;
    if (q && texts === null) { texts = claims.map(function (a) { return a.textContent.toLowerCase(); }); }
    var shown = 0;
    claims.forEach(function (a, i) {
      var ok = (!only || a.dataset.failed === "1")
        && (!c || a.dataset.codes.split(" ").indexOf(c) >= 0)
        && (!s || a.dataset.sources.split("\n").indexOf(s) >= 0)
        && (!q || texts[i].indexOf(q) >= 0);
      a.hidden = !ok; if (ok) { shown += 1; }
    });
    answers.forEach(function (sec) {
      var any = sec.querySelector("article.claim:not([hidden])") !== null;
      var filtering = only || c || s || q;
      sec.hidden = filtering ? !any : false;
    });
    $("f-count").textContent = shown + " of " + claims.length + " claims shown";
  }
  failing.addEventListener("change", apply); code.addEventListener("change", apply); source.addEventListener("change", apply);
  search.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(apply, 120); });
  document.querySelector("form.filters").addEventListener("submit", function (e) { e.preventDefault(); apply(); });
  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (d.tagName !== "DETAILS" || !d.open || d.dataset.filled) { return; }
    var pre = document.createElement("pre");
    pre.textContent = CAIRN.chunks[d.dataset.chunk] || "";
    d.appendChild(pre); d.dataset.filled = "1";
  }, true);
  function visible() { return claims.filter(function (a) { return !a.hidden && !a.parentElement.hidden; }); }
  function move(by) {
    var list = visible(); if (!list.length) { return; }
    var at = list.indexOf(document.activeElement);
    var next = list[at < 0 ? (by > 0 ? 0 : list.length - 1) : Math.min(list.length - 1, Math.max(0, at + by))];
    next.focus(); next.scrollIntoView({ block: "nearest" });
  }
  document.addEventListener("keydown", function (e) {
    var t = e.target, typing = t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA");
    if (e.key === "Escape" && t === search) { search.value = ""; apply(); return; }
    if (typing || e.ctrlKey || e.metaKey || e.altKey) { return; }
    if (e.key === "/") { e.preventDefault(); search.focus(); }
    else if (e.key === "j") { move(1); }
    else if (e.key === "k") { move(-1); }
  });
})();
