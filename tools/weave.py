#!/usr/bin/env python3
"""tools/weave.py — the book's noweb backend: noweb markup → Pandoc Markdown → HTML and LaTeX.

Usage:
    tools/weave.py [--html DIR] [--latex FILE.tex] [--markdown DIR] book/*.nw

It runs noweb's own front end (markup, then finduses) over all chapters at once, so that cross-references work across chapters, and reads the
markup stream that noweb's "Hacker's guide" describes. For every code chunk it writes a
header with the chunk's name and number, the code (highlighted by pandoc), and a footer
that says where the chunk is continued, where it is used and which identifiers it defines.
Chunk references inside code become links: pandoc highlights a placeholder identifier and
this script replaces it in pandoc's output, so links and highlighting live together.

--html DIR     one page per .nw file, a contents page (index.html), an index page
--latex FILE   one LaTeX file for XeLaTeX (ctexbook), with the indexes at the end
--markdown DIR the intermediate Pandoc Markdown, for inspection
"""
import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

NOWEB_LIB = Path(os.environ.get("NOWEB_LIB", "/usr/lib/noweb"))
TOOLS = Path(__file__).resolve().parent
PANDOC_MD = "markdown+east_asian_line_breaks-smart"
BOOK_TITLE = "注意力机制：从第一性原理到 C 代码"
PLACEHOLDER = re.compile(r"NWxREF(\d{4})x")


def die(msg):
    print(f"weave: {msg}", file=sys.stderr)
    sys.exit(1)


# ---------------------------------------------------------------- reading the markup stream

class Chunk:
    def __init__(self, kind, file):
        self.kind = kind          # "docs" or "code"
        self.file = file          # the Chapter it belongs to
        self.name = None          # code chunks: the chunk name
        self.pieces = []          # ("text", s) | ("nl",) | ("use", name) | ("quote", s)
        self.defs = []            # identifiers defined here
        self.id_uses = set()      # identifiers used here
        self.number = None        # "1.3"
        self.anchor = None        # "nw1-3"


class Chapter:
    def __init__(self, path):
        self.path = path
        base = Path(path).stem
        self.page = base + ".html"
        m = re.match(r"(\d+)-", base)
        if m:
            self.label = str(int(m.group(1)))
            self.appendix = False
        else:
            m = re.match(r"([A-Z])-", base)
            if not m:
                die(f"{path}: chapter files are named NN-name.nw or X-name.nw")
            self.label = m.group(1)
            self.appendix = True
        self.frontmatter = self.label == "0"
        self.chunks = []
        self.title = None


def read_markup(stream):
    chapters, cur, chunk, in_quote, quote_buf = [], None, None, False, []
    for raw in stream:
        line = raw.rstrip("\n")
        kw, _, rest = line.partition(" ")
        if kw == "@file":
            cur = Chapter(rest)
            chapters.append(cur)
        elif kw == "@begin":
            chunk = Chunk(rest.split()[0], cur)
            cur.chunks.append(chunk)
            chunk.skip_nl = False
        elif kw == "@end":
            chunk = None
        elif kw == "@defn":
            chunk.name = rest
            chunk.skip_nl = True      # the newline that ends the <<name>>= line
        elif kw == "@nl":
            if chunk.skip_nl:
                chunk.skip_nl = False
            elif in_quote:
                quote_buf.append("\n")
            else:
                chunk.pieces.append(("nl",))
        elif kw == "@text":
            if in_quote:
                quote_buf.append(rest)
            else:
                chunk.pieces.append(("text", rest))
        elif kw == "@quote":
            in_quote, quote_buf = True, []
        elif kw == "@endquote":
            in_quote = False
            chunk.pieces.append(("quote", "".join(quote_buf)))
        elif kw == "@use":
            chunk.pieces.append(("use", rest))
        elif kw == "@index":
            sub, _, ident = rest.partition(" ")
            if chunk is not None and chunk.kind == "code":
                if sub == "defn":
                    if ident not in chunk.defs:
                        chunk.defs.append(ident)
                elif sub == "use":
                    chunk.id_uses.add(ident)
        # @language, @line, @xref and the rest carry nothing this backend needs
    return chapters


def run_front_end(sources):
    # Identifiers come from the "@ %def" lines the chapters write after their chunks. noweb's
    # autodefs.c is not used: a chunk's code starts at column 0, so it cannot tell a local
    # variable from a top-level definition and would fill the index with m, row, q, ...
    for tool in ("markup", "finduses"):
        if not (NOWEB_LIB / tool).exists():
            die(f"{NOWEB_LIB / tool} not found (Debian package noweb)")
    markup = subprocess.Popen([str(NOWEB_LIB / "markup"), *sources], stdout=subprocess.PIPE)
    uses = subprocess.Popen([str(NOWEB_LIB / "finduses"), "-noquote"], stdin=markup.stdout,
                            stdout=subprocess.PIPE, text=True, encoding="utf-8")
    markup.stdout.close()
    out, _ = uses.communicate()
    for p in (markup,):
        if p.wait() != 0:
            die(f"noweb front end failed ({p.args[0]})")
    return out.splitlines(keepends=True)


# ---------------------------------------------------------------- cross-references

class Book:
    def __init__(self, chapters):
        self.chapters = chapters
        self.defs = {}       # chunk name -> [Chunk] in book order
        self.uses = {}       # chunk name -> [Chunk] that use it
        self.ident_defs = {} # identifier -> [Chunk]
        self.ident_uses = {} # identifier -> [Chunk]
        self.anchor_page = {}  # anchor id -> page
        self.figures = {}    # "fig:x" -> (number, chapter)
        for ch in chapters:
            n = 0
            for c in ch.chunks:
                if c.kind == "docs":
                    if ch.title is None:
                        m = re.search(r"^#\s+(.+?)\s*(\{[#.][^{}]*\})?\s*$", doc_text(c), re.M)
                        if m:
                            ch.title = m.group(1)
                    continue
                n += 1
                c.number = f"{ch.label}.{n}"
                c.anchor = f"nw{ch.label}-{n}"
                self.anchor_page[c.anchor] = ch.page
                self.defs.setdefault(c.name, []).append(c)
                for ident in c.defs:
                    self.ident_defs.setdefault(ident, []).append(c)
            if ch.title is None:
                die(f"{ch.path}: the first documentation chunk needs a '# title' line")
        for ch in chapters:
            for c in ch.chunks:
                if c.kind != "code":
                    continue
                for p in c.pieces:
                    if p[0] == "use":
                        if p[1] not in self.defs:
                            die(f"{ch.path}: chunk <<{p[1]}>> is used but never defined")
                        lst = self.uses.setdefault(p[1], [])
                        if c not in lst:
                            lst.append(c)
                for ident in c.id_uses:
                    if ident in c.defs:
                        continue
                    self.ident_uses.setdefault(ident, []).append(c)
        # explicit ids in the prose ({#sec-x}, {#fig:x}) so links can cross pages
        for ch in chapters:
            fig = 0
            for c in ch.chunks:
                if c.kind != "docs":
                    continue
                text = doc_text(c)
                for m in re.finditer(r"\{#([\w:.-]+)", text):
                    self.anchor_page[m.group(1)] = ch.page
                for m in re.finditer(r"!\[[^\]]*\]\([^)]*\)\{#(fig:[\w.-]+)", text):
                    fig += 1
                    self.figures[m.group(1)] = (f"{ch.label}.{fig}", ch)
        self.language = {name: self._language(name, set()) for name in self.defs}

    def _language(self, name, seen):
        """The language of a chunk is that of the file its root tangles to."""
        if name in seen:
            return "c"
        seen.add(name)
        if name not in self.uses:       # a root
            ext = Path(name).suffix
            return {".c": "c", ".h": "c", ".cmake": "cmake", ".gp": "gnuplot",
                    ".py": "python", ".sh": "bash", ".dot": "dot"}.get(ext, "c")
        return self._language(self.uses[name][0].name, seen)

    def first_def(self, name):
        return self.defs[name][0]


def doc_text(c):
    out = []
    for p in c.pieces:
        if p[0] == "text":
            out.append(p[1])
        elif p[0] == "nl":
            out.append("\n")
        elif p[0] == "quote":
            q = p[1]
            fence = "``" if "`" in q else "`"
            out.append(f"{fence}{q}{fence}")
    return "".join(out)


# ---------------------------------------------------------------- Markdown

class Writer:
    """Turns the book into Pandoc Markdown, for one target ("html" or "latex")."""

    def __init__(self, book, target):
        self.book = book
        self.target = target
        self.refs = []   # placeholder number -> (anchor, name, number)

    def href(self, anchor):
        if self.target == "html":
            return f"{self.book.anchor_page[anchor]}#{anchor}"
        return f"#{anchor}"

    def chunk_link(self, c, text=None):
        return f"[{text or c.number}]({self.href(c.anchor)})"

    def docs(self, ch, c):
        text = doc_text(c)
        # numbered figure captions: ![说明](figures/x){#fig:x} -> ![图 1.2　说明](...)
        def caption(m):
            num, _ = self.book.figures[m.group(3)]
            return f"![图 {num}　{m.group(1)}]({m.group(2)}){{#{m.group(3)}"
        text = re.sub(r"!\[([^\]]*)\]\(([^)]*)\)\{#(fig:[\w.-]+)", caption, text)
        # @fig:x in the prose -> a link that reads 图 1.2
        def figref(m):
            if m.group(1) not in self.book.figures:
                die(f"{ch.path}: unknown figure @{m.group(1)}")
            num, _ = self.book.figures[m.group(1)]
            return f"[图 {num}]({self.href(m.group(1))})"
        text = re.sub(r"@(fig:[\w.-]*\w)", figref, text)
        # links to explicit ids on other pages
        text = re.sub(r"\]\(#([\w:.-]+)\)",
                      lambda m: f"]({self.href(m.group(1))})" if m.group(1) in self.book.anchor_page
                      else m.group(0), text)
        # <<chunk name>> in the prose -> a link to the chunk's first definition
        def prose_ref(m):
            name = m.group(1)
            if name not in self.book.defs:
                return m.group(0)
            d = self.book.first_def(name)
            return f"[〈{md_escape(name)} {d.number}〉]({self.href(d.anchor)}){{.nwref}}"
        text = re.sub(r"<<(.+?)>>", prose_ref, text)
        return text

    def code(self, ch, c):
        book = self.book
        defs = book.defs[c.name]
        idx = defs.index(c)
        first = defs[0]
        name = md_escape(c.name)
        sign = "$\\equiv$" if idx == 0 else "$\\mathrel{+}\\equiv$"
        head_name = f"〈{name} {c.number}〉"
        if idx > 0:
            head_name = f"[〈{name} {first.number}〉]({self.href(first.anchor)})"
        lines = []
        for p in c.pieces:
            if p[0] == "text":
                lines.append(p[1])
            elif p[0] == "nl":
                lines.append("\n")
            elif p[0] == "use":
                d = book.first_def(p[1])
                self.refs.append((d.anchor, p[1], d.number))
                lines.append(f"NWxREF{len(self.refs) - 1:04d}x")
        code = "".join(lines).rstrip("\n")
        fence = "~" * max(4, 1 + max((len(m) for m in re.findall(r"~+", code)), default=0))
        lang = book.language.get(c.name, "c")
        info = []
        if idx > 0:
            info.append(f"接续 {self.chunk_link(defs[idx - 1])}。")
        if idx + 1 < len(defs):
            info.append(f"续见 {self.chunk_link(defs[idx + 1])}。")
        users = book.uses.get(c.name, [])
        if users:
            info.append("用于 " + "、".join(self.chunk_link(u, f"〈{md_escape(u.name)} {u.number}〉")
                                           for u in users) + "。")
        else:
            info.append(f"根块：由 notangle 写入 `tangled/{c.name}`{{.nwfile}}。")
        if c.defs:
            info.append("定义 " + "、".join(f"`{d}`" for d in c.defs) + "。")
        if self.target == "latex":
            tag = f"`\\nwtagbox{{{c.number}}}`{{=latex}}"
            foot = "`{\\footnotesize{}`{=latex}" + "　".join(info) + "`}`{=latex}"
        else:
            tag = f"[{c.number}]{{.nwtag}}"
            foot = f"[{'　'.join(info)}]{{.nwinfo}}"
        return (f"::: {{.nwchunk #{c.anchor}}}\n"
                f"[{tag} {head_name} {sign}]{{.nwname}}\n\n"
                f"{fence} {{.{lang}}}\n{code}\n{fence}\n\n"
                f"{foot}\n"
                f":::\n")

    def chapter(self, ch):
        parts = []
        for c in ch.chunks:
            if c.kind == "docs":
                parts.append(self.docs(ch, c))
            else:
                parts.append("\n" + self.code(ch, c) + "\n")
        return "".join(parts)

    def indexes(self):
        """The index of chunks and the index of identifiers, as Markdown."""
        book = self.book
        out = ["# 代码块索引 {#index-chunks .unnumbered}\n\n",
               "每个代码块的名字、定义它的块（第一个号码）和使用它的块。\n\n"]
        for name in sorted(book.defs, key=sort_key):
            defs = book.defs[name]
            users = book.uses.get(name, [])
            s = f"- 〈{md_escape(name)}〉：" + "、".join(self.chunk_link(d) for d in defs)
            if users:
                s += "；用于 " + "、".join(self.chunk_link(u) for u in users)
            else:
                s += "；根块"
            out.append(s + "\n")
        out.append("\n# 标识符索引 {#index-identifiers .unnumbered}\n\n")
        out.append("C 标识符，定义它的块（**粗体**）和使用它的块。\n\n")
        for ident in sorted(book.ident_defs, key=sort_key):
            defs = book.ident_defs[ident]
            uses = [u for u in book.ident_uses.get(ident, []) if u not in defs]
            s = f"- `{ident}`：" + "、".join(f"**{self.chunk_link(d)}**" for d in defs)
            if uses:
                s += "、" + "、".join(self.chunk_link(u) for u in uses)
            out.append(s + "\n")
        return "".join(out)

    def resolve(self, text, target_fmt):
        """Replace the placeholders that pandoc highlighted with links to chunks."""
        def rep(m):
            anchor, name, number = self.refs[int(m.group(1))]
            if target_fmt == "html":
                return (f'<a class="nwref" href="{html.escape(self.href(anchor))}">'
                        f'〈{html.escape(name)}&nbsp;{number}〉</a>')
            return f"\\nwref{{{anchor}}}{{{tex_escape(name)}}}{{{number}}}"
        return PLACEHOLDER.sub(rep, text)


def sort_key(s):
    return (s.lower(), s)


def md_escape(s):
    return re.sub(r"([\\`*_{}\[\]<>#|$~^])", r"\\\1", s)


def tex_escape(s):
    repl = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "%": r"\%",
            "#": r"\#", "&": r"\&", "$": r"\$", "^": r"\^{}", "~": r"\~{}"}
    return "".join(repl.get(ch, ch) for ch in s)


def pandoc(args, text):
    try:
        p = subprocess.run(["pandoc", *args], input=text, capture_output=True, text=True,
                           encoding="utf-8")
    except FileNotFoundError:
        die("pandoc not found (Debian package pandoc)")
    if p.returncode != 0:
        die("pandoc failed:\n" + p.stderr)
    if p.stderr.strip():
        print(p.stderr.rstrip(), file=sys.stderr)
    return p.stdout


# ---------------------------------------------------------------- HTML

def write_html(book, outdir):
    w = Writer(book, "html")
    outdir.mkdir(parents=True, exist_ok=True)
    pages = [(ch.page, ch.title, ch) for ch in book.chapters] + [("book-index.html", "索引", None)]
    tocs = []
    for i, (page, title, ch) in enumerate(pages):
        md = w.chapter(ch) if ch else w.indexes()
        args = ["-f", PANDOC_MD, "-t", "html5", "--standalone", "--mathml",
                "--template", str(TOOLS / "book.html"), "--toc", "--toc-depth=2",
                "--default-image-extension=svg", "--highlight-style=tango",
                "-M", f"pagetitle={strip_md(title)}", "-V", f"booktitle={BOOK_TITLE}",
                "-V", "lang=zh-CN"]
        if i > 0:
            args += ["-V", f"prev={pages[i-1][0]}", "-V", f"prevtitle={strip_md(pages[i-1][1])}"]
        if i + 1 < len(pages):
            args += ["-V", f"next={pages[i+1][0]}", "-V", f"nexttitle={strip_md(pages[i+1][1])}"]
        out = w.resolve(pandoc(args, md), "html")
        (outdir / page).write_text(out, encoding="utf-8")
        m = re.search(r'<nav id="TOC"[^>]*>(.*?)</nav>', out, re.S)
        toc = m.group(1) if m else ""
        toc = re.sub(r'href="#', f'href="{page}#', toc)
        tocs.append((page, title, toc))
    # the contents page
    body = ['<ol class="contents">']
    for page, title, toc in tocs:
        body.append(f'<li><a href="{page}">{html.escape(strip_md(title))}</a>{subtoc(toc)}</li>')
    body.append("</ol>")
    md = ("# " + BOOK_TITLE + " {.unnumbered}\n\n"
          "本书讲 Transformer 的注意力机制，从全连接层一直讲到多头注意力和参数计数。"
          "书中的代码块合起来就是 C 语言库 `libattn`，书中给出的每个数都由同一章的测试检查。\n\n"
          "```{=html}\n" + "\n".join(body) + "\n```\n")
    args = ["-f", PANDOC_MD, "-t", "html5", "--standalone", "--mathml",
            "--template", str(TOOLS / "book.html"), "-M", f"pagetitle={BOOK_TITLE}",
            "-V", f"booktitle={BOOK_TITLE}", "-V", "lang=zh-CN", "-V", "contents=true",
            "-V", f"next={pages[0][0]}", "-V", f"nexttitle={strip_md(pages[0][1])}"]
    (outdir / "index.html").write_text(pandoc(args, md), encoding="utf-8")
    for asset in ("book.css", "search.js"):
        shutil.copy(TOOLS / asset, outdir / asset)
    write_search_index(outdir, [(page, title) for page, title, _ in tocs])


def write_search_index(outdir, pages):
    """search-index.js: one entry per section (page, anchor, heading, plain text), loaded by a
    <script> tag so that search works from file:// with no server and no network."""
    entries = []
    for page, title in pages:
        text = (outdir / page).read_text(encoding="utf-8")
        m = re.search(r"<main>(.*)</main>", text, re.S)
        body = m.group(1) if m else ""
        parts = re.split(r'(<h[1-3][^>]*\bid="[^"]*"[^>]*>.*?</h[1-3]>)', body, flags=re.S)
        anchor, heading = "", strip_md(title)
        for part in parts:
            hm = re.match(r'<h[1-3][^>]*\bid="([^"]*)"[^>]*>(.*?)</h[1-3]>', part, re.S)
            if hm:
                anchor, heading = hm.group(1), plain(hm.group(2))
                continue
            words = plain(part)
            if words:
                entries.append({"p": page, "a": anchor, "h": heading, "t": strip_md(title), "x": words})
    js = "window.BOOK_SEARCH_INDEX = " + json.dumps(entries, ensure_ascii=False, separators=(",", ":")) + ";\n"
    (outdir / "search-index.js").write_text(js, encoding="utf-8")


def plain(fragment):
    fragment = re.sub(r"<annotation[^>]*>.*?</annotation>", "", fragment, flags=re.S)
    fragment = re.sub(r"</?(p|li|h[1-6]|div|pre|tr|td|th|br|figcaption)\b[^>]*>", " ", fragment)
    text = html.unescape(re.sub(r"<[^>]+>", "", fragment))
    return re.sub(r"\s+", " ", text).strip()


def subtoc(toc):
    """Keep only the section level of a page's table of contents."""
    m = re.search(r"<ul>\s*<li>.*?<ul>(.*?)</ul>\s*</li>\s*</ul>", toc, re.S)
    return f'<ul class="sections">{m.group(1)}</ul>' if m else ""


def strip_md(s):
    return re.sub(r"[`*]", "", s or "")


# ---------------------------------------------------------------- LaTeX

def write_latex(book, outfile):
    w = Writer(book, "latex")
    parts, in_main, in_appendix = [], False, False
    for ch in book.chapters:
        if ch.frontmatter:
            parts.append("```{=latex}\n\\frontmatter\n\\setcounter{secnumdepth}{-1}\n```\n\n")
        elif not in_main:
            parts.append("```{=latex}\n\\mainmatter\n\\setcounter{secnumdepth}{2}\n```\n\n")
            in_main = True
        if ch.appendix and not in_appendix:
            parts.append("```{=latex}\n\\appendix\n```\n\n")
            in_appendix = True
        parts.append(w.chapter(ch) + "\n\n")
    parts.append("```{=latex}\n\\backmatter\n```\n\n")
    parts.append(w.indexes())
    md = "".join(parts)
    args = ["-f", PANDOC_MD, "-t", "latex", "--standalone", "--top-level-division=chapter",
            "--number-sections", "--toc", "--toc-depth=2", "--highlight-style=tango",
            "--default-image-extension=pdf",
            "-H", str(TOOLS / "preamble.tex"),
            "-V", "documentclass=ctexbook", "-V", "classoption=fontset=none",
            "-V", "classoption=zihao=-4", "-V", "papersize=a4",
            "-V", "geometry:margin=2.4cm", "-V", "colorlinks=true",
            "-V", "linkcolor=blue!50!black", "-V", "urlcolor=blue!50!black",
            "-M", f"title={BOOK_TITLE}", "-M", "date="]
    tex = w.resolve(pandoc(args, md), "latex")
    outfile.parent.mkdir(parents=True, exist_ok=True)
    outfile.write_text(tex, encoding="utf-8")
    return md


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--html", type=Path)
    ap.add_argument("--latex", type=Path)
    ap.add_argument("--markdown", type=Path)
    ap.add_argument("sources", nargs="+")
    a = ap.parse_args()
    book = Book(read_markup(run_front_end(a.sources)))
    if a.markdown:
        a.markdown.mkdir(parents=True, exist_ok=True)
        for target in ("html", "latex"):
            w = Writer(book, target)
            for ch in book.chapters:
                (a.markdown / f"{Path(ch.path).stem}.{target}.md").write_text(w.chapter(ch), encoding="utf-8")
    if a.html:
        write_html(book, a.html)
    if a.latex:
        write_latex(book, a.latex)
    return 0


if __name__ == "__main__":
    sys.exit(main())
