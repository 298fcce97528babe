// tools/book.js — what the HTML book does beyond plain pages, all offline (file://), no network:
// the side bar (whole-book contents; open or closed, remembered), the current section marked in
// it while scrolling, the top bar leaving a phone's screen while reading, keys (← → between
// chapters, / to search), a ¶ link on each heading, a copy button on each code chunk, folded parts
// (the back matter's sections, test chunks) opened when a link lands in them or the page is printed.
// Each part is a function of its own, called once at the end; search is in search.js.
(function () {
  "use strict";
  var narrow = window.matchMedia("(max-width: 1000px)");

  function store(key, value) {
    try {
      if (value === undefined) return window.localStorage.getItem(key);
      window.localStorage.setItem(key, value);
    } catch (e) { /* storage may be off for file:// pages; then nothing is remembered */ }
    return null;
  }

  // ---- the side bar: open by default on a wide screen, a drawer on a narrow one
  function sidebar() {
    var button = document.getElementById("sidetoggle");
    var bar = document.getElementById("sidebar");
    if (!button || !bar) return;
    function isOpen() {
      return narrow.matches ? document.body.classList.contains("sideopen")
                            : !document.body.classList.contains("noside");
    }
    function set(open) {
      if (narrow.matches) document.body.classList.toggle("sideopen", open);
      else { document.body.classList.toggle("noside", !open); store("attn-book-side", open ? "open" : "closed"); }
      button.setAttribute("aria-expanded", String(open));
    }
    if (!narrow.matches && store("attn-book-side") === "closed") set(false);
    button.setAttribute("aria-expanded", String(isOpen()));
    button.addEventListener("click", function () { set(!isOpen()); });
    narrow.addEventListener("change", function () { button.setAttribute("aria-expanded", String(isOpen())); });
    // on a narrow screen, following a link in the drawer or touching the text closes it
    bar.addEventListener("click", function (ev) {
      if (narrow.matches && ev.target.closest("a")) set(false);
    });
    document.querySelector("main").addEventListener("click", function () {
      if (narrow.matches && isOpen()) set(false);
    });
    // the current chapter's entry in view in the side bar
    var cur = bar.querySelector("li.current");
    if (cur && !narrow.matches) bar.scrollTop = Math.max(0, cur.offsetTop - 80);
  }

  // ---- the current section, marked in the side bar as one scrolls
  function scrollspy() {
    var links = {};
    document.querySelectorAll(".pagetoc a[href^='#']").forEach(function (a) {
      links[decodeURIComponent(a.getAttribute("href").slice(1))] = a;
    });
    var heads = Array.prototype.filter.call(document.querySelectorAll("main h1[id], main h2[id]"),
                                            function (h) { return links[h.id]; });
    if (heads.length === 0) return;
    var bar = document.getElementById("sidebar");
    var active = null, queued = false;
    function update() {
      queued = false;
      var line = document.getElementById("topbar").offsetHeight + 24, pick = heads[0];
      for (var i = 0; i < heads.length; i++) {
        if (heads[i].getBoundingClientRect().top <= line) pick = heads[i]; else break;
      }
      var a = links[pick.id];
      if (a === active) return;
      if (active) { active.classList.remove("active"); active.removeAttribute("aria-current"); }
      active = a;
      a.classList.add("active");
      a.setAttribute("aria-current", "location");
      // keep the marked entry visible inside the side bar (without scrolling the page)
      var top = a.offsetTop - bar.offsetTop, h = bar.clientHeight;
      if (top < bar.scrollTop + 40 || top > bar.scrollTop + h - 60) bar.scrollTop = Math.max(0, top - h / 3);
    }
    window.addEventListener("scroll", function () {
      if (!queued) { queued = true; window.requestAnimationFrame(update); }
    }, { passive: true });
    update();
  }

  // ---- on a phone the top bar leaves the screen while one reads down, and returns going up
  function hidingBar() {
    var bar = document.getElementById("topbar");
    var phone = window.matchMedia("(max-width: 700px)");
    var last = window.scrollY;
    window.addEventListener("scroll", function () {
      var y = window.scrollY;
      var away = phone.matches && y > last && y > bar.offsetHeight && !document.body.classList.contains("sideopen")
                 && document.activeElement !== document.getElementById("search");
      if (y < last - 4 || y <= bar.offsetHeight) away = false;
      else if (y <= last + 4 && !away) away = bar.classList.contains("away");
      bar.classList.toggle("away", away);
      last = y;
    }, { passive: true });
  }

  // ---- keys: ← and → to the previous and next chapter, / to the search box
  function keys() {
    document.addEventListener("keydown", function (ev) {
      if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.defaultPrevented) return;
      var t = ev.target;
      if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      if (ev.key === "/") {
        var box = document.getElementById("search");
        if (box) {
          ev.preventDefault();
          document.getElementById("topbar").classList.remove("away");
          box.focus();
          box.select();
        }
        return;
      }
      if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
      // a code box or a table that scrolls sideways keeps its arrows
      if (t && t.closest && t.closest("pre, table, .sourceCode")) return;
      var link = document.querySelector("#topbar a[rel='" + (ev.key === "ArrowLeft" ? "prev" : "next") + "']");
      if (link) { ev.preventDefault(); window.location.href = link.href; }
    });
  }

  // ---- a ¶ link on each heading, to copy or share the address of a section
  function headingLinks() {
    document.querySelectorAll("main h1[id], main h2[id], main h3[id], main h4[id]").forEach(function (h) {
      var a = document.createElement("a");
      a.className = "hlink";
      a.href = "#" + h.id;
      a.textContent = "¶";
      a.title = "本节的链接";
      a.setAttribute("aria-label", "本节的链接");
      h.appendChild(a);
    });
  }

  // ---- a copy button on each code chunk: copies the code as shown
  function copyButtons() {
    function copied(button, ok) {
      button.textContent = ok ? "已复制" : "复制失败";
      window.setTimeout(function () { button.textContent = "复制"; }, 1500);
    }
    function fallback(text) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      document.body.removeChild(area);
      return ok;
    }
    document.querySelectorAll("main div.sourceCode").forEach(function (box) {
      var pre = box.querySelector("pre");
      if (!pre) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "copybtn";
      button.textContent = "复制";
      button.title = "复制这段代码";
      button.addEventListener("click", function () {
        var text = pre.textContent;
        button.dataset.copied = text;
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(text).then(function () { copied(button, true); },
                                                   function () { copied(button, fallback(text)); });
        } else {
          copied(button, fallback(text));
        }
      });
      box.parentNode.insertBefore(button, box);
    });
  }

  // ---- folded parts (the back matter's sections, test chunks in the text): a link that lands in
  // one opens it (and every folded part around it), on arrival, on a change of the address's
  // #part, and when a link to the current #part is followed again; all open for printing
  function openTargets() {
    function open() {
      var id = decodeURIComponent(window.location.hash.slice(1));
      var el = id && document.getElementById(id);
      if (!el) return;
      var opened = false;
      var inner = el.matches("details") ? el : el.querySelector(":scope > details");
      if (inner && !inner.open) { inner.open = true; opened = true; }
      for (var d = el.parentElement && el.parentElement.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) {
        if (!d.open) { d.open = true; opened = true; }
      }
      if (opened) el.scrollIntoView();
    }
    window.addEventListener("hashchange", open);
    document.addEventListener("click", function (ev) {
      var a = ev.target.closest && ev.target.closest("a[href*='#']");
      if (!a || ev.defaultPrevented || a.pathname !== window.location.pathname) return;
      if (a.hash === window.location.hash) window.setTimeout(open, 0);   // no hashchange comes
    });
    open();
    var shut = [];
    window.addEventListener("beforeprint", function () {
      document.querySelectorAll("main details:not([open])").forEach(function (d) { shut.push(d); d.open = true; });
    });
    window.addEventListener("afterprint", function () {
      shut.forEach(function (d) { d.open = false; });
      shut = [];
    });
  }

  [sidebar, scrollspy, hidingBar, keys, headingLinks, copyButtons, openTargets].forEach(function (part) {
    try { part(); } catch (e) { if (window.console) console.error("book.js: " + part.name + ": " + e); }
  });
})();
