// tools/search.js — full-text search over the whole book, offline.
// The index (search-index.js) is a plain script that sets window.BOOK_SEARCH_INDEX, so this works
// from file:// without a server. Chinese needs no word splitting: a query matches as a substring;
// several space-separated terms must all match. Sections whose heading holds the terms come
// first, then the rest in book order; the terms are marked in the results; ↑ ↓ choose a result,
// Enter opens it, Escape closes the list; the list says how many results it leaves out.
(function () {
  "use strict";
  var box = document.getElementById("search");
  var list = document.getElementById("search-results");
  var index = window.BOOK_SEARCH_INDEX || [];
  var SHOWN = 30;
  if (!box || !list) return;
  var selected = -1;

  // text with every term wrapped in <mark>, built from text nodes (the index is plain text)
  function marked(parent, text, terms) {
    var lower = text.toLowerCase(), at = 0;
    while (at < text.length) {
      var next = -1, len = 0;
      terms.forEach(function (t) {
        var i = lower.indexOf(t, at);
        if (i >= 0 && (next < 0 || i < next)) { next = i; len = t.length; }
      });
      if (next < 0) { parent.appendChild(document.createTextNode(text.slice(at))); break; }
      if (next > at) parent.appendChild(document.createTextNode(text.slice(at, next)));
      var m = document.createElement("mark");
      m.textContent = text.slice(next, next + len);
      parent.appendChild(m);
      at = next + len;
    }
    return parent;
  }

  function snippet(text, term) {
    var at = Math.max(0, text.toLowerCase().indexOf(term));
    var from = Math.max(0, at - 30);
    var s = (from > 0 ? "…" : "") + text.slice(from, at + term.length + 50);
    return s + (at + term.length + 50 < text.length ? "…" : "");
  }

  function select(i) {
    var items = list.querySelectorAll("li.hit");
    if (items.length === 0) { selected = -1; return; }
    if (selected >= 0 && items[selected]) { items[selected].classList.remove("sel"); items[selected].removeAttribute("aria-selected"); }
    selected = (i + items.length) % items.length;
    items[selected].classList.add("sel");
    items[selected].setAttribute("aria-selected", "true");
    items[selected].scrollIntoView({ block: "nearest" });
  }

  function show(query) {
    var terms = query.toLowerCase().split(/\s+/).filter(Boolean);
    list.textContent = "";
    selected = -1;
    if (terms.length === 0) { list.hidden = true; return; }
    var inHeading = [], inText = [];
    var seenHeading = {};
    for (var i = 0; i < index.length; i++) {
      var e = index[i];
      var head = (e.t + " " + e.h).toLowerCase();
      if (!terms.every(function (t) { return (head + " " + e.x.toLowerCase()).indexOf(t) >= 0; })) continue;
      if (terms.every(function (t) { return head.indexOf(t) >= 0; })) {
        // a section's text comes in several entries: its heading is one hit
        var key = e.p + "#" + e.a;
        if (!seenHeading[key]) { seenHeading[key] = true; inHeading.push(e); }
      } else {
        inText.push(e);
      }
    }
    var hits = inHeading.concat(inText);
    hits.slice(0, SHOWN).forEach(function (e) {
      var li = document.createElement("li");
      li.className = "hit";
      li.setAttribute("role", "option");
      var a = document.createElement("a");
      a.href = e.p + (e.a ? "#" + e.a : "");
      var where = document.createElement("span");
      where.className = "where";
      where.textContent = e.t;
      a.appendChild(where);
      marked(a, e.h, terms);
      var p = document.createElement("p");
      marked(p, snippet(e.x, terms[0]), terms);
      li.appendChild(a);
      li.appendChild(p);
      li.addEventListener("mousemove", function () {
        var items = Array.prototype.indexOf.call(list.querySelectorAll("li.hit"), li);
        if (items !== selected) select(items);
      });
      list.appendChild(li);
    });
    var note = null;
    if (hits.length === 0) note = "没有找到“" + query + "”";
    else if (hits.length > SHOWN) note = "共 " + hits.length + " 处，只列出前 " + SHOWN + " 处；多输入几个字可以缩小范围";
    if (note) {
      var li = document.createElement("li");
      li.className = "note";
      li.textContent = note;
      list.appendChild(li);
    }
    list.hidden = false;
  }

  box.addEventListener("input", function () { show(box.value.trim()); });
  box.addEventListener("focus", function () { if (box.value.trim()) show(box.value.trim()); });
  box.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") { box.value = ""; show(""); box.blur(); }
    else if (ev.key === "ArrowDown") { ev.preventDefault(); if (list.hidden) show(box.value.trim()); select(selected + 1); }
    else if (ev.key === "ArrowUp") { ev.preventDefault(); select(selected - 1); }
    else if (ev.key === "Enter") {
      var items = list.querySelectorAll("li.hit a");
      var a = items[selected >= 0 ? selected : 0];
      if (a) { ev.preventDefault(); list.hidden = true; window.location.href = a.href; }
    }
  });
  // a click outside closes the list
  document.addEventListener("click", function (ev) {
    if (!ev.target.closest(".search")) list.hidden = true;
  });
})();
