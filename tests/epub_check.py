#!/usr/bin/env python3
"""tests/epub_check.py BOOK.epub [SOURCE_DIR] — the EPUB as a reading app gets it.

1. Debian's epubcheck (EPUB 3) finds no error and no warning in it.
2. Its package says what a reading app shows: language zh-CN, the title and the subtitle, an author,
   a date; its navigation lists the reader's edition's chapters (book/*.nw but appendices B-D) and 参考文献.
3. Its pages carry the book: every chapter's title, formulas as MathML (no TeX left), every figure
   of the chapters as an image in the archive, chunk references in the code as links (no
   placeholder left) whose targets exist, a test reference (测试 N.k, named: the test is in the source
   companion) wherever the prose has one, the 常见误解 boxes, nothing folded, and 参考文献 with an
   entry for every key the chapters cite.
4. It reads well in an app: a cover image and page; the navigation's titles are plain text (no TeX,
   no MathML: 为什么要除以 √dₖ) and nest no section under a 练习; 术语表 and 术语索引 are chapters;
   one XHTML file per section, none over 400 KB (sections of the back matter, which the reader's
   edition leaves out, are reported but not held to it); every <math> has an alttext.
"""
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

EPUBCHECK_JAR = Path("/usr/share/java/epubcheck.jar")


def main():
    if len(sys.argv) < 2:
        print("usage: tests/epub_check.py BOOK.epub [SOURCE_DIR]", file=sys.stderr)
        return 2
    epub = Path(sys.argv[1])
    src = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).resolve().parent.parent
    problems = []
    bad = problems.append
    if not epub.exists():
        print(f"epub-check: {epub} not found (cmake --build build --target epub)", file=sys.stderr)
        return 1

    # 1. epubcheck
    if EPUBCHECK_JAR.exists():
        cmd = ["java", "-jar", str(EPUBCHECK_JAR)]
    else:
        print("epub-check: epubcheck not found (Debian package epubcheck)", file=sys.stderr)
        return 1
    run = subprocess.run(cmd + ["--quiet", str(epub)], capture_output=True, text=True)
    report = (run.stdout + run.stderr).strip()
    messages = [l for l in report.splitlines() if re.match(r"^(ERROR|FATAL|WARNING)", l)]
    if run.returncode != 0 or messages:
        bad(f"epubcheck: exit {run.returncode}, {len(messages)} messages:\n    " + "\n    ".join(messages[:30] or [report[:2000]]))

    z = zipfile.ZipFile(epub)
    names = z.namelist()
    if names[0] != "mimetype" or z.getinfo("mimetype").compress_type != zipfile.ZIP_STORED:
        bad("the mimetype is not the archive's first entry, uncompressed")
    opf_name = next((n for n in names if n.endswith(".opf")), None)
    opf = z.read(opf_name).decode("utf-8") if opf_name else ""
    pages = {n: z.read(n).decode("utf-8") for n in names if n.endswith(".xhtml")}
    text = "\n".join(pages[n] for n in sorted(pages))

    # 2. the package
    for what, pattern in (("language zh-CN", r"<dc:language>zh-CN</dc:language>"),
                          ("the title", r"<dc:title[^>]*>注意力机制</dc:title>"),
                          ("the subtitle", r"<dc:title[^>]*>从第一性原理到 C 代码</dc:title>"),
                          ("an author", r"<dc:creator[^>]*>[^<]+</dc:creator>"),
                          ("a date", r"<dc:date[^>]*>\d{4}-\d\d-\d\d")):
        if not re.search(pattern, opf):
            bad(f"the package (content.opf) lacks {what}")
    nav = next((pages[n] for n in pages if n.endswith("nav.xhtml")), "")
    if not nav:
        bad("no navigation document (nav.xhtml)")
    # the reader's edition: the preface, the chapters and appendix A (B-D are the source companion's)
    chapters = sorted(p for p in (src / "book").glob("*.nw") if not re.match(r"[B-D]-", p.name))
    titles = []
    for nw in chapters:
        m = re.search(r"^#\s+(.+?)\s*(\{[#.][^{}]*\})?\s*$", nw.read_text(encoding="utf-8"), re.M)
        title = re.sub(r"\$[^$]*\$|`", "", m.group(1)).strip() if m else nw.stem
        titles.append((nw, title))
        key = title[:6]
        if key not in re.sub(r"<[^>]+>", "", nav):
            bad(f"the navigation lacks {nw.name} ({title})")
        if key not in text:
            bad(f"no page has the title of {nw.name} ({title})")
    for word in ("参考文献",):
        if word not in re.sub(r"<[^>]+>", "", nav):
            bad(f"the navigation lacks {word}")

    # 3. the pages
    if "NWxREF" in text:
        bad("a chunk reference in the code was left as a placeholder (NWxREF…)")
    if re.search(r"\$[^$\s][^$<]*\$|\\(frac|sqrt|mathbb|begin)\b", re.sub(r"<(math|code|pre)\b.*?</\1>", "", text, flags=re.S)):
        bad("raw TeX in the text (a formula that is not MathML)")
    if "<math" not in text:
        bad("no MathML")
    ids = {n: set(re.findall(r'\sid="([^"]+)"', page)) for n, page in pages.items()}
    broken = []
    for n, page in pages.items():
        for m in re.finditer(r'\shref="([^"#:]*)#([^"]+)"', page):
            target = os.path.normpath(os.path.join(os.path.dirname(n), m.group(1))) if m.group(1) else n
            if m.group(2) not in ids.get(target, ()):
                broken.append(f"{n}: {m.group(1)}#{m.group(2)}")
    if broken:
        bad(f"{len(broken)} links point at nothing: " + ", ".join(broken[:5]))
    chunk_links = len(re.findall(r'<a class="nwref" href="[^"]*#nw', text))
    if chunk_links == 0:
        bad("no chunk reference in the code is a link")
    images = [n for n in names if re.search(r"\.(svg|png|jpe?g)$", n)]
    # (the figures of the reading path: a figure in the back matter is the companion's)
    prose = "\n".join(re.split(r"^##\s.*\{[^{}]*\.backmatter\b", nw.read_text(encoding="utf-8"), maxsplit=1, flags=re.M)[0]
                      for nw in chapters)
    figures = sorted(set(re.findall(r"!\[[^\]]*\]\([^)]*\)\{#(fig:[\w.-]+)", prose)))
    for f in figures:
        img = next((m for n, page in pages.items()
                    for m in [re.search(rf'<img src="([^"]+)" id="{re.escape(f)}"', page)] if m), None)
        if not img:
            bad(f"figure {f} is not in the pages")
        elif not any(n.endswith(img.group(1).lstrip("./")) for n in names):
            bad(f"figure {f}'s image {img.group(1)} is not in the archive")
    if "@<<测试：" in prose and not re.search(r'class="nwtestref[^"]*">测试\s[0-9A-Z]+\.\d+</', text):
        bad("the prose cites tests, but no 测试 N.k is in the pages")
    if re.search(r"^:::\s*\{[^}]*\.misconception", prose, re.M) and not re.search(r'<div[^>]*class="misconception"', text):
        bad("the chapters have 常见误解 boxes, but the pages do not")
    if "<details" in text:
        bad("something is folded in the EPUB (<details>)")
    keys = {k for group in re.findall(r"\[(@[^\[\]]+)\](?![(\[{])", re.sub(r"`[^`]*`", "", prose))
            for k in re.findall(r"@([\w:.-]*\w)", group)}
    refs = next((p for p in pages.values() if 'id="references"' in p), "")
    if not refs:
        bad("no 参考文献 page")
    for key in sorted(keys):
        if f'id="ref-{key}"' not in refs:
            bad(f"参考文献 has no entry for [@{key}]")

    # 4. reading it in an app
    if not re.search(r'<item [^>]*properties="[^"]*cover-image', opf):
        bad("no cover image (content.opf declares none)")
    if not any(n.endswith("cover.xhtml") for n in names):
        bad("no cover page")
    ncx = next((z.read(n).decode("utf-8") for n in names if n.endswith(".ncx")), "")
    toc = re.search(r'<nav epub:type="toc".*?</nav>', nav, re.S)
    toc = toc.group(0) if toc else ""
    for what, doc in (("nav.xhtml", toc), ("toc.ncx", ncx)):
        if "<math" in doc or re.search(r"\\[a-zA-Z]+|\^\{|_\{", doc):
            bad(f"the navigation ({what}) has a formula that is not plain text: "
                + ", ".join(sorted(set(re.findall(r"[^<>]{0,12}(?:\\[a-zA-Z]+|<math)[^<>]{0,12}", doc)))[:3]))
    for word in ("术语表", "术语索引"):
        if word not in re.sub(r"<[^>]+>", "", toc):
            bad(f"the navigation lacks {word}")
    nested = [re.sub(r"<[^>]+>", "", m.group(1)) for m in
              re.finditer(r'<li[^>]*><a [^>]*>((?:(?!</a>).)*练习(?:(?!</a>).)*)</a>\s*<ol', toc, re.S)]
    if nested:
        bad(f"the navigation nests sections under {nested[0]}")
    limit, large_back = 400 * 1024, []
    for n in names:
        if n.endswith(".xhtml") and z.getinfo(n).file_size > limit:
            if 'class="backmatter"' in pages[n]:
                large_back.append(n)
            else:
                bad(f"{n} is {z.getinfo(n).file_size // 1024} KB (more than 400 KB)")
    bare = len(re.findall(r"<math\b(?![^>]*\balttext=)", text))
    if bare:
        bad(f"{bare} formulas (<math>) have no alttext")
    for p in problems:
        print("epub-check: " + p, file=sys.stderr)
    if large_back:
        print(f"epub-check: {len(large_back)} back-matter files over 400 KB (the source companion's material): "
              + ", ".join(large_back[:5]), file=sys.stderr)
    print(f"epub-check: {epub.name}, {epub.stat().st_size // 1024} KB, {len(pages)} pages, {len(images)} images, "
          f"{chunk_links} chunk links in code, {len(keys)} cited works; epubcheck "
          f"{'clean' if not messages and run.returncode == 0 else 'NOT clean'}; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
