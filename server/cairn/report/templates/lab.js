// The faithfulness lab: n·p against pⁿ, and a simulation of answers one at a time.
"use strict";
var CAIRN = JSON.parse(document.getElementById("cairn-data").textContent);
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var pIn = $("lab-p"), nIn = $("lab-n");
  if (!pIn) { return; }
  var preset = CAIRN.lab;
  var sim = { answers: 0, allOk: 0, recent: [] }, timer = null;
  function four(x) { return isFinite(x) ? x.toFixed(4) : "n/a"; }
  function trim(x) { return isFinite(x) ? String(Number(x.toFixed(4))) : "n/a"; }
  function params() {
    var p = Math.min(1, Math.max(0, parseFloat(pIn.value)));
    var n = Math.max(1, Math.round(parseFloat(nIn.value)));
    return { p: isNaN(p) ? NaN : p, n: isNaN(n) ? NaN : n };
  }
  function drawDots() {
    var svg = $("lab-dots"), ns = "http://www.w3.org/2000/svg";
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    sim.recent.forEach(function (ok, i) {
      var r = document.createElementNS(ns, "rect");
      r.setAttribute("x", String((i % 40) * 10)); r.setAttribute("y", String(Math.floor(i / 40) * 10));
      r.setAttribute("width", "8"); r.setAttribute("height", "8"); r.setAttribute("class", ok ? "ok" : "bad");
      svg.appendChild(r);
    });
  }
  function show() {
    var q = params();
    $("lab-expected").textContent = trim(q.n * q.p);
    $("lab-all").textContent = four(Math.pow(q.p, q.n));
    $("lab-count").textContent = String(sim.answers);
    $("lab-share").textContent = sim.answers ? four(sim.allOk / sim.answers) : "–";
    drawDots();
  }
  function step() {
    var q = params();
    if (isNaN(q.p) || isNaN(q.n)) { return; }
    var ok = true;
    for (var i = 0; i < q.n; i++) { if (Math.random() >= q.p) { ok = false; } }
    sim.answers += 1; if (ok) { sim.allOk += 1; }
    sim.recent.push(ok); if (sim.recent.length > 160) { sim.recent.shift(); }
    show();
  }
  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    $("lab-play").textContent = "Play"; $("lab-play").setAttribute("aria-pressed", "false");
  }
  function reset() { stop(); sim = { answers: 0, allOk: 0, recent: [] }; show(); }
  $("lab-step").addEventListener("click", function () { stop(); step(); });
  $("lab-reset").addEventListener("click", function () {
    pIn.value = String(preset.p); nIn.value = String(preset.n); reset();
  });
  $("lab-play").addEventListener("click", function () {
    if (timer !== null) { stop(); return; }
    timer = setInterval(step, 40);
    $("lab-play").textContent = "Pause"; $("lab-play").setAttribute("aria-pressed", "true");
  });
  // a new p or n starts a new simulation: the old answers were drawn with other odds
  pIn.addEventListener("input", reset); nIn.addEventListener("input", reset);
  show();
})();
