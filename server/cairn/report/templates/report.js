// The report's claims, drawn from the page's data a batch at a time (a large
// report opens at once), with filters, search, keyboard navigation and the
// chunk texts on demand. Every value from a draft or a source is set with
// textContent: nothing here parses markup.
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var answers = CAIRN.answers, BATCH = 100;
  var list = $("claims"), more = $("more");
  var failing = $("f-failing"), code = $("f-code"), source = $("f-source"), search = $("f-search");
  var items = [], total = 0;  // every claim (and every answer without claims) in page order
  answers.forEach(function (a, ai) {
    if (!a.claims.length) { items.push({ a: ai, c: -1 }); }
    a.claims.forEach(function (c, ci) { items.push({ a: ai, c: ci }); total += 1; });
  });
  var matches = items, next = 0, lastAnswer = -1, section = null, haystack = null, timer = null;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function badge(ok, yes, no) { return el("span", "badge " + (ok ? "ok" : "bad"), ok ? yes : no); }
  function score(x) { return x === null || x === undefined ? "n/a" : x.toFixed(2); }
  function diagItem(tag, x) {
    var d = el(tag, "diag " + x.severity);
    d.appendChild(el("span", "code", x.code)); d.appendChild(document.createTextNode(" "));
    d.appendChild(el("span", "sev", x.severity));
    d.appendChild(document.createTextNode(", line " + x.line + ": " + x.message));
    if (x.fix) { d.appendChild(el("br")); d.appendChild(el("span", "fix", "fix: " + x.fix)); }
    return d;
  }
  function answerSection(ai) {
    var a = answers[ai], sec = el("section", "answer"), h = el("h3");
    var verified = a.claims.filter(function (c) { return c.supported; }).length;
    sec.id = "answer-" + ai;
    h.appendChild(badge(a.faithful, "faithful", "not faithful"));
    h.appendChild(el("span", "path", a.path));
    h.appendChild(el("span", "detail", verified + "/" + a.claims.length + " claims verified"
      + (a.uncited ? ", " + a.uncited + " uncited paragraph" + (a.uncited === 1 ? "" : "s") : "")));
    sec.appendChild(h);
    if (a.id !== undefined) { sec.appendChild(el("p", "detail", "answer " + a.id + (a.question ? ": " + a.question : ""))); }
    a.diagnostics.forEach(function (x) { sec.appendChild(diagItem("p", x)); });
    if (!a.claims.length) { sec.appendChild(el("p", "detail", "No claims.")); }
    if (a.uncited_list && a.uncited_list.length) {
      var un = el("details", "uncited");
      un.appendChild(el("summary", null, a.uncited_list.length + " uncited paragraph"
        + (a.uncited_list.length === 1 ? "" : "s") + " (cite a source, or mark one <!-- cairn: no-claim -->)"));
      var ul = el("ul");
      a.uncited_list.forEach(function (u) { ul.appendChild(el("li", null, "line " + u.line + ": " + u.text)); });
      un.appendChild(ul); sec.appendChild(un);
    }
    return sec;
  }
  function citation(x) {
    var box = el("div", "cite"), meta = el("p", "cite-meta");
    meta.appendChild(badge(x.resolved, "resolved", "unresolved"));
    meta.appendChild(el("span", "source", x.source || "?"));
    if (x.page) { meta.appendChild(el("span", null, "page " + x.page)); }
    if (x.version) { var v = el("span", null, "version " + x.version.slice(0, 12)); v.title = "version " + x.version; meta.appendChild(v); }
    meta.appendChild(el("span", null, "[" + x.start + ", " + x.end + ")"));
    if (x.chunk_id) { meta.appendChild(el("span", null, "chunk " + x.chunk_id)); }
    if (x.tier) { meta.appendChild(el("span", null, "tier " + x.tier)); }
    if (x.lineage) { meta.appendChild(el("span", null, "lineage " + x.lineage)); }
    box.appendChild(meta);
    var q = el("blockquote", "quote");
    q.appendChild(document.createTextNode(x.before)); q.appendChild(el("mark", null, x.quote));
    q.appendChild(document.createTextNode(x.after));
    box.appendChild(q);
    if (!x.found) { box.appendChild(el("p", "detail", "The quote was not found in the cited chunk.")); }
    if (x.chunk) {
      var det = el("details", "chunk"); det.dataset.chunk = x.chunk;
      if (x.at) { det.dataset.at = x.at.join(","); }
      det.appendChild(el("summary", null, "the whole chunk")); box.appendChild(det);
    }
    return box;
  }
  // a claim of several parts (or backed jointly): its text with each part underlined, then each
  // part beside the quote(s) backing it, or marked as backed by none (offsets are code points)
  function showsParts(c) { return c.parts && (c.parts.length > 1 || c.joint); }
  function claimText(c) {
    var p = el("p", "claim-text");
    if (!c.text) { p.textContent = "(no claim text)"; return p; }
    if (!showsParts(c)) { p.textContent = c.text; return p; }
    var chars = Array.from(c.text), at = 0;
    c.parts.slice().sort(function (x, y) { return x.start - y.start; }).forEach(function (part, k) {
      if (part.start < at || part.end > chars.length) { return; }
      if (part.start > at) { p.appendChild(document.createTextNode(chars.slice(at, part.start).join(""))); }
      var span = el("span", "part-span " + (part.supported ? "ok" : "bad"), chars.slice(part.start, part.end).join(""));
      span.title = part.supported ? "backed by a quote" : "no quote backs this part";
      p.appendChild(span); at = part.end;
    });
    if (at < chars.length) { p.appendChild(document.createTextNode(chars.slice(at).join(""))); }
    return p;
  }
  function partsList(c) {
    var box = el("div", "parts");
    if (c.joint) {
      box.appendChild(el("p", "joint-note", "Joint: no single quote backs the whole claim; its quotes back it together."));
    }
    var ol = el("ol", "parts-list");
    ol.setAttribute("aria-label", "the claim's parts and the quotes backing each");
    c.parts.forEach(function (part) {
      var li = el("li", "part " + (part.supported ? "ok" : "bad"));
      var head = el("p", "part-head");
      head.appendChild(badge(part.supported, "backed", "no quote"));
      head.appendChild(el("span", "part-text", part.text));
      li.appendChild(head);
      if (!part.supported) { li.appendChild(el("p", "unbacked", "No quote backs this part.")); }
      else if (!part.citations.length) { li.appendChild(el("p", "detail", "Backed by the quotes together, by none alone.")); }
      part.citations.forEach(function (i) {
        var x = c.citations[i], q = el("blockquote", "part-quote");
        q.dataset.citation = String(i + 1);
        q.appendChild(el("span", "part-cite", "citation " + (i + 1) + (x && x.source ? ", " + x.source : "")));
        q.appendChild(document.createTextNode(" "));
        if (x && x.quote) { q.appendChild(el("mark", null, x.quote)); }
        else { q.appendChild(el("span", "detail", "(the quote is not shown)")); }
        li.appendChild(q);
      });
      ol.appendChild(li);
    });
    box.appendChild(ol);
    return box;
  }
  function claimArticle(ai, ci) {
    var a = answers[ai], c = a.claims[ci], art = el("article", "claim " + (c.supported ? "ok" : "bad"));
    art.id = "claim-" + ai + "-" + ci; art.tabIndex = -1;
    art.dataset.path = a.path; art.dataset.line = String(c.line);
    var head = el("p", "claim-head");
    head.appendChild(badge(c.supported, "verified", "failed"));
    head.appendChild(el("span", "where", a.path + ":" + c.line));
    head.appendChild(el("span", "detail", "support " + score(c.score) + " (" + c.judge + ")"));
    if (c.joint) { head.appendChild(el("span", "badge joint", "joint")); }
    art.appendChild(head);
    art.appendChild(claimText(c));
    if (showsParts(c)) { art.appendChild(partsList(c)); }
    c.citations.forEach(function (x) { art.appendChild(citation(x)); });
    if (c.diagnostics.length) {
      var ul = el("ul", "diags");
      c.diagnostics.forEach(function (x) { ul.appendChild(diagItem("li", x)); });
      art.appendChild(ul);
    }
    return art;
  }
  function renderMore() {
    var frag = document.createDocumentFragment(), end = Math.min(matches.length, next + BATCH);
    for (; next < end; next++) {
      var it = matches[next];
      if (it.a !== lastAnswer) { section = answerSection(it.a); frag.appendChild(section); lastAnswer = it.a; }
      if (it.c >= 0) { section.appendChild(claimArticle(it.a, it.c)); }
    }
    list.appendChild(frag);
    var left = matches.length - next;
    more.hidden = left <= 0;
    more.textContent = "Show " + Math.min(BATCH, left) + " more (" + left + " left)";
  }
  function text(it) {
    var a = answers[it.a], c = a.claims[it.c], parts = [a.path, c.text, c.judge];
    c.citations.forEach(function (x) { parts.push(x.source || "", x.quote, x.before, x.after, x.chunk_id || ""); });
    c.diagnostics.forEach(function (x) { parts.push(x.code, x.message, x.fix || ""); });
    return parts.join("\n").toLowerCase();
  }
  function apply() {
    var q = search.value.trim().toLowerCase(), cd = code.value, src = source.value, only = failing.checked;
    if (!q && !cd && !src && !only) { matches = items; }
    else {
      if (q && haystack === null) { haystack = items.map(function (it) { return it.c < 0 ? "" : text(it); }); }
      matches = items.filter(function (it, i) {
        if (it.c < 0) { return false; }
        var c = answers[it.a].claims[it.c];
        return (!only || !c.supported)
          && (!cd || c.diagnostics.some(function (x) { return x.code === cd; }))
          && (!src || c.citations.some(function (x) { return x.source === src; }))
          && (!q || haystack[i].indexOf(q) >= 0);
      });
    }
    var shown = matches === items ? total : matches.length;
    $("f-count").textContent = shown + " of " + total + " claims shown";
    if (host && host.setState) { host.setState({ filters: { failing: only, code: cd, source: src, search: search.value } }); }
    list.textContent = ""; next = 0; lastAnswer = -1; section = null;
    renderMore();
  }
  failing.addEventListener("change", apply); code.addEventListener("change", apply); source.addEventListener("change", apply);
  search.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(apply, 120); });
  document.querySelector("form.filters").addEventListener("submit", function (e) { e.preventDefault(); apply(); });
  more.addEventListener("click", renderMore);
  if ("IntersectionObserver" in window) {
    new IntersectionObserver(function (es) {
      if (es.some(function (e) { return e.isIntersecting; }) && !more.hidden) { renderMore(); }
    }, { rootMargin: "800px" }).observe(more);
  }
  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (d.tagName !== "DETAILS" || !d.open || !d.dataset.chunk || d.dataset.filled) { return; }
    var text = CAIRN.chunks[d.dataset.chunk] || "", pre = el("pre");
    var at = d.dataset.at ? d.dataset.at.split(",").map(Number) : null;
    if (at && at[0] >= 0 && at[1] <= text.length && at[0] < at[1]) {
      pre.appendChild(document.createTextNode(text.slice(0, at[0])));
      pre.appendChild(el("mark", null, text.slice(at[0], at[1])));
      pre.appendChild(document.createTextNode(text.slice(at[1])));
    } else { pre.textContent = text; }
    d.appendChild(pre); d.dataset.filled = "1";
  }, true);
  function move(by) {
    var arts = list.querySelectorAll("article.claim"); if (!arts.length) { return; }
    var at = Array.prototype.indexOf.call(arts, document.activeElement);
    if (by > 0 && at === arts.length - 1 && !more.hidden) { renderMore(); arts = list.querySelectorAll("article.claim"); }
    var i = at < 0 ? (by > 0 ? 0 : arts.length - 1) : Math.min(arts.length - 1, Math.max(0, at + by));
    arts[i].focus(); arts[i].scrollIntoView({ block: "nearest" });
  }
  document.addEventListener("keydown", function (e) {
    var t = e.target, typing = t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA");
    if (e.key === "Escape" && t === search) { search.value = ""; apply(); return; }
    if (typing || e.ctrlKey || e.metaKey || e.altKey) { return; }
    if (e.key === "/") { e.preventDefault(); search.focus(); }
    else if (e.key === "j") { move(1); }
    else if (e.key === "k") { move(-1); }
  });
  // inside the editor's webview: a click on a claim (or Enter on it) reveals it in its draft,
  // and the filters survive the page being drawn again after each check
  var host = typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : null;
  if (host) {
    var saved = host.getState && host.getState();
    if (saved && saved.filters) {
      failing.checked = !!saved.filters.failing; search.value = saved.filters.search || "";
      if (Array.prototype.some.call(code.options, function (o) { return o.value === saved.filters.code; })) { code.value = saved.filters.code; }
      if (Array.prototype.some.call(source.options, function (o) { return o.value === saved.filters.source; })) { source.value = saved.filters.source; }
    }
    document.body.classList.add("in-editor");
    var reveal = function (art) { host.postMessage({ type: "open", path: art.dataset.path, line: Number(art.dataset.line) }); };
    list.addEventListener("click", function (e) {
      var art = e.target.closest("article.claim");
      if (art && !e.target.closest("details, a, button") && !String(window.getSelection())) { reveal(art); }
    });
    list.addEventListener("keydown", function (e) {
      if (e.key === "Enter" && e.target.matches && e.target.matches("article.claim")) { reveal(e.target); }
    });
  }
  apply();
})();
