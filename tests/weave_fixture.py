#!/usr/bin/env python3
"""tests/weave_fixture.py [--keep DIR] — the book's machinery on a small book of its own.

tests/weave/book/ is a preface, a chapter and an appendix that use everything tools/weave.py does
for the chapters (WRITING.md, 正文与后记): a chapter's back matter (## … {.backmatter}), test
references in the prose (@<<测试：…>>), a 常见误解 box, citations of book/references.bib (the book's
own bibliography, copied beside them). This weaves it to HTML, LaTeX and EPUB Markdown, runs pandoc
on the pages that show each thing, typesets the PDF with the book's own preamble, and checks:

  - test references read 测试 1.k (k counts the chapter's tests in the order they are first
    defined), link to the test, and each test's footer links back to every place that cites it;
    the test's header carries its number;
  - the back matter: in HTML each of its sections is a <details> whose summary is the heading, the
    reading path is not folded; in LaTeX it is between \\nwbackmatter and \\nwendbackmatter; in the
    EPUB (the reader's edition) none of it;
  - the box: titled 常见误解 in HTML, the nwmisconception environment in LaTeX;
  - citations: numbered in the order of first citation over the whole book (the preface's first),
    runs collapsed ([2–4]), each number a link to its entry; a citation in code is left alone;
    参考文献 lists the entries in that order, names as GB/T 7714 writes them (VASWANI A, SHAZEER N);
  - the PDF has 常见误解, 后记, 测试 1.1 and 参考文献 in its text;
  - a citation of a key that the bibliography lacks, a box left open, and a heading after the back
    matter without .backmatter each stop the build (or tests/reading_path.py) with a message that
    names the chapter and what is wrong.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEAVE = [sys.executable, str(ROOT / "tools" / "weave.py")]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
    return cond


def weave(*args, cwd, expect_fail=False):
    p = subprocess.run(WEAVE + list(args), cwd=cwd, capture_output=True, text=True,
                       env={**os.environ, "SOURCE_DATE_EPOCH": "0"})
    if not expect_fail and p.returncode != 0:
        sys.exit(f"weave-fixture: weave.py {' '.join(args[:2])} failed:\n{p.stderr}")
    return p


def main():
    keep = None
    if len(sys.argv) == 3 and sys.argv[1] == "--keep":
        keep = Path(sys.argv[2])
    tmp = Path(tempfile.mkdtemp(prefix="weave-fixture-"))
    try:
        run(tmp)
    finally:
        if keep:
            shutil.copytree(tmp, keep, dirs_exist_ok=True)
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("weave-fixture: " + f, file=sys.stderr)
    print(f"weave-fixture: {len(failures)} problems")
    return 1 if failures else 0


def run(tmp):
    book = tmp / "book"
    shutil.copytree(ROOT / "tests" / "weave" / "book", book)
    shutil.copy(ROOT / "book" / "references.bib", book / "references.bib")
    sources = sorted(str(p.relative_to(tmp)) for p in book.glob("*.nw"))
    weave("prepare", "jobs", *sources, cwd=tmp)
    jobs = {p.name[:-5]: json.loads(p.read_text(encoding="utf-8")) for p in (tmp / "jobs").glob("*.json")}
    epub_md = jobs["attn-book.epub"]["md"]

    # pandoc on the pages that show it all
    out = {}
    for job, name in (("01-chap.html", "01-chap.html"), ("references.html", "references.html"),
                      ("01-chap.latex", "01-chap.tex"), ("references.latex", "references.tex"),
                      ("00-front.html", "00-front.html"), ("source-01-chap.html", "source-01-chap.html"),
                      ("source-01-chap.latex", "source-01-chap.tex")):
        weave("run", f"jobs/{job}.json", f"out/{name}", cwd=tmp)
        out[name] = (tmp / "out" / name).read_text(encoding="utf-8")
        if name.endswith(".html"):          # pandoc wraps long lines: one line per page here
            out[name] = re.sub(r"\n", " ", out[name])
    # the source companion's page and LaTeX show it all; the reader's leave the back matter to it
    html, tex = out["source-01-chap.html"], out["source-01-chap.tex"]
    rhtml, rtex = out["01-chap.html"], out["01-chap.tex"]
    check("本章的测试" not in rhtml and "backmatter" not in rhtml and "〈测试：" not in rhtml and "bmstart" not in rhtml,
          "reader's HTML: the back matter or a test chunk is printed")
    check("答案写在这里" in rhtml and "答案写在这里" in rtex and re.search(r'<h2 id="[^"]*"><span class="secno">1\.2</span> 练习的参考答案', rhtml),
          "reader's edition: the words of 练习的参考答案 are not a numbered section (1.2) of their own")
    check(re.search(r'<h2 id="sec-fx-two"><span class="secno">1\.1</span> 第二节</h2>', rhtml),
          "reader's HTML: the section heading is not numbered as in the PDF (1.1 第二节)")
    check(re.search(r'href="source/01-chap.html#nw1-\d+"\s+class="nwtestref">测试\u00a01\.1</a>', rhtml),
          "reader's HTML: 测试 1.1 does not link into the companion's page (source/01-chap.html)")
    check(re.search(r"\\href\{attn-book-source.pdf\\#nw1-\d+\}\{测试~1\.1\}.*?\\nwsrcpage\{nw1-\d+\}", rtex, re.S),
          "reader's LaTeX: 测试 1.1 is not linked into attn-book-source.pdf with its page (\\nwsrcpage)")
    check("\\nwbackmatter" not in rtex and "本章的测试" not in rtex, "reader's LaTeX: the back matter is printed")

    # test references: 测试 1.1 is 一加一等于二 (defined first, again later), 1.2 交换律
    t1 = re.search(r'<div id="(nw1-\d+)" class="nwchunk nwtest">\s*<p><span class="nwname">[^〈]*〈测试：一加一等于二', html, re.S)
    t2 = re.search(r'<div id="(nw1-\d+)" class="nwchunk nwtest">\s*<p><span class="nwname">[^〈]*〈测试：加法满足交换律', html, re.S)
    if check(t1 and t2, "the test chunks are not divs .nwchunk .nwtest"):
        a1, a2 = t1.group(1), t2.group(1)
        check(re.search(rf'<span id="tref-{a1}-1"><a\s+href="01-chap.html#{a1}"\s+class="nwtestref">测试\u00a01\.1</a></span>', html),
              "the prose's first test reference is not “测试 1.1” linked to the test, with an anchor")
        check(re.search(rf'href="01-chap.html#{a2}"\s+class="nwtestref">测试\u00a01\.2</a>', html), "测试 1.2 is not linked")
        header1 = html[t1.start():html.index("</div>", t1.end())]
        check('<span class="nwtestno">测试\u00a01.1</span>' in header1, "the test's header lacks 测试 1.1")
        foot = re.search(rf'<div id="{a1}".*?正文引用：(.*?)。</span>', html, re.S)
        if check(foot, "the test's footer has no 正文引用"):
            check(f'href="01-chap.html#tref-{a1}-1"' in foot.group(1) and f'href="01-chap.html#tref-{a1}-2"' in foot.group(1),
                  f"the footer of 测试 1.1 does not link back to both places: {foot.group(1)[:300]}")
            words = re.sub(r"\s+", " ", re.sub("<[^>]+>", "", foot.group(1)))
            check(words == "第 1 章、§1.1 第二节",
                  f"the footer does not name the places (the chapter's opening, §1.1 第二节): {words}")
        continued = re.findall(r'〈测试：一加一等于二', html)
        check(html.count('<span class="nwtestno">测试\u00a01.1</span>') == 1, "a continued definition repeats the test number")
        check(len(continued) >= 2, "the continued definition is missing")
        check(f"\\hypertarget{{tref-{a1}-1}}{{}}{{\\protect\\hyperlink{{{a1}}}{{测试~1.1}}}}" in tex,
              "LaTeX: the test reference is not a link with a target")
        check("\\nwtestno{测试~1.1}" in tex, "LaTeX: the test's header lacks \\nwtestno{测试~1.1}")
        check("正文引用：\\protect\\hyperlink{tref-" in tex and "{§1.1}" in tex, "LaTeX: the test's footer lacks 正文引用：§1.1")
    # the appendix cites chapter 1's test: the link crosses pages
    check("测试\u00a01.2" in jobs["source-A-app.html"]["md"] and "(01-chap.html#nw1-" in jobs["source-A-app.html"]["md"],
          "the appendix's reference to 测试 1.2 is not a link to chapter 1's page")
    check("(source/01-chap.html#nw1-" in jobs["A-app.html"]["md"],
          "the reader's appendix does not link 测试 1.2 to the companion's chapter 1")

    # the back matter
    folds = re.findall(r'<details class="backmatter"><summary>\s*<h2 class="backmatter" id="([^"]+)">', html)
    check(len(folds) == 2, f"HTML: {len(folds)} folded back-matter sections, not 2")
    check(html.count("<details class=\"backmatter\">") == html.count("</details>") - html.count('<details>'),
          "HTML: the back matter's <details> are not closed")
    head = html.split('<p class="bmstart"')[0]
    check('<p class="bmstart"' in html and "backmatter" not in head.split("<main>")[-1],
          "HTML: the reading path is folded, or the back matter is not marked 后记")
    check(re.search(r'<div id="TOC".*本章的测试.*练习的参考答案', html, re.S), "HTML: the contents lack the back matter's sections")
    check(tex.count("\\nwbackmatter") == 1 and tex.rstrip().endswith("\\nwendbackmatter"),
          "LaTeX: the back matter is not between \\nwbackmatter and \\nwendbackmatter")
    check(tex.index("\\nwbackmatter") < tex.index("本章的测试"), "LaTeX: \\nwbackmatter comes after its heading")
    # the EPUB is the reader's edition: no back matter (its tests are the source companion's), nothing folded
    check("::: {.backmatter}" not in epub_md and "测试：" not in epub_md and "<details" not in epub_md,
          "EPUB: the reader's edition carries back matter")
    test_html = html[html.index("本章的测试"):]
    check("<details><summary>" not in test_html, "HTML: tests in the back matter are folded a second time")

    # the box
    box = re.search(r'<div[^>]*class="misconception">\s*<p><span class="mctitle">常见误解</span></p>(.*?)</div>', html, re.S)
    check(box and "<li>" in box.group(1), "HTML: the box is not titled 常见误解 or lost its list")
    check(re.search(r"\\begin\{nwmisconception\}.*交换律.*\\end\{nwmisconception\}", tex, re.S),
          "LaTeX: the box is not an nwmisconception environment")

    # citations: [1] the preface's, then [2–4], [1] again with a locator; the appendix's [5]
    sup = re.findall(r"<sup>(.*?)</sup>", rhtml, re.S)
    plain = [re.sub(r"<[^>]+>", "", s) for s in sup]
    check(plain[:2] == ["[2–4]", "[1]第\u00a03\u00a0节"], f"HTML: the citations read {plain}, not [2–4], [1]第 3 节")
    check('<a href="references.html#ref-nadaraya1964estimating">2</a>–<a href="references.html#ref-bahdanau2015neural">4</a>' in rhtml,
          "HTML: a collapsed run does not link its first and last entries")
    check("<code>[@vaswani2017attention]</code>" in rhtml, "HTML: a citation in code was replaced")
    check('<a href="../references.html#ref-nadaraya1964estimating">2</a>' in html,
          "the companion's HTML does not link its citations to the reader's 参考文献 (../references.html)")
    check("\\textsuperscript{{[}\\protect\\hyperlink{ref-nadaraya1964estimating}{2}" in tex or
          re.search(r"\\textsuperscript\{.*?hyperlink\{ref-nadaraya1964estimating\}\{2\}", tex),
          "LaTeX: the citation is not a superscript link")
    refs = out["references.html"]
    order = re.findall(r'<div id="ref-([^"]+)" class="csl-entry"', refs)
    check(order == ["vaswani2017attention", "nadaraya1964estimating", "watson1964smooth", "bahdanau2015neural",
                    "kingma2015adam"], f"参考文献 is not in the order of first citation: {order}")
    check(re.search(r'<div class="csl-left-margin">\[1\]', refs) and "VASWANI A, SHAZEER N, PARMAR N" in refs,
          "参考文献: entries not numbered [1] …, or names not written VASWANI A, SHAZEER N, …")
    check('class="nwcites"' not in refs and "[@" not in refs, "参考文献: the numbering citations were left in")
    check(re.search(r"\\hypertarget\{ref-vaswani2017attention\}", out["references.tex"]),
          "LaTeX 参考文献: no link target for an entry")
    check("%NWCITES" not in out["references.tex"] and "\\textsuperscript" not in out["references.tex"],
          "LaTeX 参考文献: the numbering citations were left in")

    # the PDF, typeset with the book's own preamble
    pdf_checks(tmp, sources)

    # errors: each stops the build with a message naming the chapter and the fault
    for name, edit, want, tool in (
            ("a missing key", lambda s: s.replace("[@vaswani2017attention, 第 3 节]", "[@nosuch2099]"),
             r"01-chap\.nw: \[@nosuch2099\] cites nothing in references\.bib", "weave"),
            ("an unclosed box", lambda s: s.replace("- 框里也可以有列表。\n:::", "- 框里也可以有列表。"),
             r"01-chap\.nw: a ::: \{\.misconception\} box is not closed", "weave"),
            ("a plain heading after the back matter", lambda s: s.replace("## 练习的参考答案 {.backmatter}", "## 练习的参考答案"),
             r"01-chap\.nw:\d+: the heading “## 练习的参考答案” follows the back matter's first heading", "reading")):
        bad = tmp / "bad"
        shutil.rmtree(bad, ignore_errors=True)
        shutil.copytree(book, bad / "book")
        f = bad / "book" / "01-chap.nw"
        f.write_text(edit(f.read_text(encoding="utf-8")), encoding="utf-8")
        if tool == "weave":
            p = weave("prepare", "jobs", *sorted(str(x.relative_to(bad)) for x in (bad / "book").glob("*.nw")),
                      cwd=bad, expect_fail=True)
            msg = p.stderr
        else:
            p = subprocess.run([sys.executable, str(ROOT / "tests" / "reading_path.py"), str(bad)],
                               capture_output=True, text=True)
            msg = p.stdout
        check(p.returncode != 0 and re.search(want, msg), f"{name} does not fail with /{want}/: exit {p.returncode}, {msg.strip()[-300:]}")


def pdf_checks(tmp, sources):
    """The fixture through the book's whole LaTeX path: weave.py --latex, then tools/latex.sh."""
    if not shutil.which("latexmk"):
        check(False, "latexmk not found: the PDF path is not checked")
        return
    pdf_dir = tmp / "pdf"
    weave("--latex", str(pdf_dir / "attn-book.tex"), *sources, cwd=tmp)
    # the companion first: the reader's edition prints its page numbers
    for tex in ("attn-book-source.tex", "attn-book.tex"):
        p = subprocess.run([str(ROOT / "tools" / "latex.sh"), tex], cwd=pdf_dir, capture_output=True,
                           text=True, env={**os.environ, "SOURCE_DATE_EPOCH": "0"})
        if not check(p.returncode == 0, f"XeLaTeX failed on the fixture's {tex}:\n{p.stderr[-1500:]}"):
            return
        if tex == "attn-book-source.tex":
            weave("srcpages", str(pdf_dir / "attn-book-source.aux"), str(pdf_dir / "source-pages.tex"), cwd=tmp)
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf_dir / "attn-book-source.pdf"), "-"],
                          capture_output=True, text=True).stdout
    for word in ("常见误解", "后记", "测试 1.1", "测试 1.2", "参考文献", "VASWANI A, SHAZEER N", "正文引用：第 1 章", "源码卷"):
        check(word in text, f"companion's PDF: “{word}” is not in the text")
    check(re.search(r"\[2\s*[–-]\s*4\]", text), "PDF: the collapsed citation [2–4] is not in the text")
    outlines = subprocess.run(["qpdf", "--json", "--json-key=outlines", str(pdf_dir / "attn-book-source.pdf")],
                              capture_output=True, text=True).stdout
    check("本章的测试" in outlines and "参考文献" in outlines, "PDF: the back matter or 参考文献 has no bookmark")
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf_dir / "attn-book.pdf"), "-"],
                          capture_output=True, text=True).stdout
    for word in ("测试 1.1", "答案写在这里", "参考文献", "读本"):
        check(word in text, f"reader's PDF: “{word}” is not in the text")
    for word in ("后记", "本章的测试", "〈测试："):
        check(word not in text, f"reader's PDF: “{word}” is printed")
    check(re.search(r"源码卷第\s*\d+\s*页", text), "reader's PDF: no 源码卷第 N 页 after a test it cites")


if __name__ == "__main__":
    sys.exit(main())
