// tools/search.js — full-text search over the whole book, offline.
// The index (search-index.js) is a plain script that sets window.BOOK_SEARCH_INDEX, so this works
// from file:// without a server. Chinese needs no word splitting: a query matches as a substring;
// several space-separated terms must all match.
(function () {
  "use strict";
  var box = document.getElementById("search");
  var list = document.getElementById("search-results");
  var index = window.BOOK_SEARCH_INDEX || [];
  if (!box || !list) return;

  function snippet(text, term) {
    var at = text.toLowerCase().indexOf(term);
    var from = Math.max(0, at - 30);
    var s = (from > 0 ? "…" : "") + text.slice(from, at + term.length + 50);
    return s + (at + term.length + 50 < text.length ? "…" : "");
  }

  function show(query) {
    var terms = query.toLowerCase().split(/\s+/).filter(Boolean);
    list.textContent = "";
    if (terms.length === 0) { list.hidden = true; return; }
    var hits = 0;
    for (var i = 0; i < index.length && hits < 30; i++) {
      var e = index[i];
      var hay = (e.h + " " + e.x).toLowerCase();
      if (!terms.every(function (t) { return hay.indexOf(t) >= 0; })) continue;
      hits++;
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = e.p + (e.a ? "#" + e.a : "");
      a.textContent = e.t + " › " + e.h;
      var p = document.createElement("p");
      p.textContent = snippet(e.x, terms[0]);
      li.appendChild(a);
      li.appendChild(p);
      list.appendChild(li);
    }
    if (hits === 0) {
      var none = document.createElement("li");
      none.textContent = "没有找到“" + query + "”";
      list.appendChild(none);
    }
    list.hidden = false;
  }

  box.addEventListener("input", function () { show(box.value.trim()); });
  box.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") { box.value = ""; show(""); }
  });
})();
