#!/usr/bin/env python3
"""tools/weave.py — the book's noweb backend: noweb markup → Pandoc Markdown → HTML and LaTeX.

Usage, whole book at once (slow: every page through pandoc):
    tools/weave.py [--html DIR] [--latex FILE.tex] [--markdown DIR] book/*.nw

Usage, in steps (what the build does, so that an edit re-runs pandoc only for its own chapter):
    tools/weave.py prepare JOBDIR [--version V] [--date D] book/*.nw
        reads all chapters (cross-references need the whole book), writes one job file per
        HTML page and per LaTeX chapter into JOBDIR, and the LaTeX master file JOBDIR/attn-book.tex;
        a file is rewritten only when its content changes
    tools/weave.py run JOB.json OUT      one job through pandoc: an HTML page or a LaTeX chapter
    tools/weave.py contents JOB.json HTMLDIR
        an edition's contents page (index.html; the companion's in HTMLDIR/source), and for the
        reader's edition the search index, the stylesheet and script
    tools/weave.py widecode [--columns N] book/*.nw
        the code lines of the reader's edition wider than the page holds (CODE_COLUMNS), which
        the PDF would wrap (↪), as FILE:LINE; exits 1 if there is any (no pandoc, a second or two)
    tools/weave.py srcpages attn-book-source.aux source-pages.tex
        the page of each label of the source companion, for the reader's 〔源码卷第 N 页〕

Two editions come from the same sources: the reader's (读本: attn-book.pdf, the pages in HTMLDIR)
prints the reading path of every chapter, its exercises and the words of their answers; the source
companion (源码卷: attn-book-source.pdf, the pages in HTMLDIR/source) prints everything, back matter,
appendices B–D and the chunk and identifier indexes included. The reader's edition links what it
leaves out into the companion (the web pages by link, the PDF by the companion's page number).

It runs noweb's own front end (markup, then finduses) over all chapters at once, so that
cross-references work across chapters, and reads the markup stream that noweb's "Hacker's guide"
describes. For every code chunk it writes a
header with the chunk's name and number, the code (highlighted by pandoc), and a footer
that says where the chunk is continued, where it is used and which identifiers it defines.
Chunk references inside code become links: pandoc highlights a placeholder identifier and
this script replaces it in pandoc's output, so links and highlighting live together.

--html DIR     one page per .nw file, a contents page (index.html), an index page
--latex FILE   one LaTeX file for XeLaTeX (ctexbook), with the indexes at the end
--markdown DIR the intermediate Pandoc Markdown, for inspection
"""
import argparse
import concurrent.futures
import datetime
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import terms

NOWEB_LIB = Path(os.environ.get("NOWEB_LIB", "/usr/lib/noweb"))
TOOLS = Path(__file__).resolve().parent
PANDOC_MD = "markdown+east_asian_line_breaks-smart"
BOOK_MAIN_TITLE = "注意力机制"
BOOK_SUBTITLE = "从第一性原理到 C 代码"
BOOK_TITLE = f"{BOOK_MAIN_TITLE}：{BOOK_SUBTITLE}"
BOOK_AUTHOR = "libattn 项目"
BOOK_SUBJECT = "Transformer 的注意力机制，从第一性原理讲到 C 语言库 libattn（文学程序）"
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
        self.line = None          # the line of the .nw file it starts on (a code chunk: its <<name>>= line)


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
        self.lines = 0            # the lines of the file read so far


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
            chunk.line = cur.lines + 1
            cur.chunks.append(chunk)
            chunk.skip_nl = False
        elif kw == "@end":
            chunk = None
        elif kw == "@defn":
            chunk.name = rest
            chunk.skip_nl = True      # the newline that ends the <<name>>= line
        elif kw == "@nl" or line == "@index nl":
            cur.lines += 1
            if kw != "@nl":
                continue
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
        self.tables = {}     # "tbl:x" -> (number, chapter)
        for ch in chapters:
            n = 0
            for c in ch.chunks:
                if c.kind == "docs":
                    if ch.title is None:
                        m = re.search(r"^#\s+(.+?)\s*(\{[#.][^{}]*\})?\s*$", doc_text(c), re.M)
                        if m:
                            ch.title = m.group(1)
                            ch.title_chunk = c
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
            if ch.label in OPTIONAL_CHAPTERS and not ch.appendix:
                ch.title += OPTIONAL_MARK
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
            fig = tbl = 0
            for c in ch.chunks:
                if c.kind != "docs":
                    continue
                text = doc_text(c)
                for m in re.finditer(r"\{#([\w:.-]+)", text):
                    self.anchor_page[m.group(1)] = ch.page
                for m in re.finditer(r"!\[[^\]]*\]\([^)]*\)\{#(fig:[\w.-]+)", text):
                    fig += 1
                    self.figures[m.group(1)] = (f"{ch.label}.{fig}", ch)
                for m in TABLE_CAPTION.finditer(text):
                    tbl += 1
                    self.tables[m.group(2)] = (f"{ch.label}.{tbl}", ch)
                    self.anchor_page[m.group(2)] = ch.page
        self.language = {name: self._language(name, set()) for name in self.defs}
        # chunks that exist only for the tests: every root they end up in is under tests/
        self.test_only = {name: all(r.startswith("tests/") for r in self._roots(name, set()))
                          for name in self.defs}
        # the tests: a chunk whose name begins with 测试： is test N.k, N its chapter's label and
        # k its place among the chapter's tests (first definitions, in the order of the file)
        self.test_number = {}
        for ch in chapters:
            k = 0
            for c in ch.chunks:
                if c.kind == "code" and is_test_name(c.name) and self.defs[c.name][0] is c:
                    k += 1
                    self.test_number[c.name] = f"{ch.label}.{k}"
        self.scan_prose()
        self.scan_editions()

    def companion_code(self, name):
        """A chunk that only the source companion prints, wherever it stands: a test, a chunk only the
        tests use, the data program of a figure, the build's CMake."""
        if is_test_name(name) or self.test_only.get(name):
            return True
        roots = self._roots(name, set())
        return all(r.startswith(("tests/", "figures/")) or r.endswith(".cmake") or
                   Path(r).name == "CMakeLists.txt" for r in roots)

    def scan_editions(self):
        """What the reader's edition (读本) leaves to the source companion (源码卷): appendices B–D,
        every chapter's back matter (except the prose of its 练习的参考答案, up to that section's first
        code chunk), and, in the reading path, the chunks of companion_code. Sets c.reader on every
        code chunk, ch.reader on every chapter, and the anchors that only the companion has."""
        self.companion_anchors = set()
        for ch in self.chapters:
            ch.reader = not (ch.appendix and ch.label in COMPANION_APPENDICES)
            mode = EditionMode()
            for c in ch.chunks:
                if c.kind == "code":
                    c.reader = ch.reader and mode.code() and not self.companion_code(c.name)
                    if not c.reader:
                        self.companion_anchors.add(c.anchor)
                    continue
                anchors = iter(self.cite_anchors.get(c, []))
                for line in doc_text(c).split("\n"):
                    keep = mode.line(line) and ch.reader
                    found = [m.group(1) for m in re.finditer(r"\{#([\w:.-]+)", line)]
                    found += [next(anchors, None) for m in PROSE_REF.finditer(line)
                              if m.group(1) in self.test_number]
                    if not keep:
                        self.companion_anchors.update(a for a in found if a)
        # a table's id is set on its caption line, which the filter keeps or drops with the table


    def scan_prose(self):
        """What the prose says about the rest of the book: the places where it cites a test (each
        gets an anchor, and the test's footer links back to it), the back matter's first heading,
        and the bibliography's citations, numbered in the order they first appear."""
        self.test_cites = {}     # test name -> [(anchor, chapter, section number, section title)]
        self.cite_anchors = {}   # docs Chunk -> [anchor of each <<测试：…>> in it, in order]
        self.cite_keys = []      # bibliography keys in order of first citation
        self.cite_where = {}     # key -> the first chapter that cites it
        self.backmatter_id = {}  # chapter -> the id of its first back-matter heading (what #backmatter links to)
        count = {}
        for ch in self.chapters:
            sec = [0, 0]
            where = (None, ch.title)
            fence = None
            for c in ch.chunks:
                if c.kind != "docs":
                    continue
                anchors = self.cite_anchors.setdefault(c, [])
                for line in doc_text(c).split("\n"):
                    # (every <<测试：…>> gets its anchor, as the writer links every one; headings and
                    # citations count outside code blocks only)
                    for m in PROSE_REF.finditer(line):
                        name = m.group(1)
                        if name in self.test_number:
                            n = count[name] = count.get(name, 0) + 1
                            anchor = f"tref-{self.defs[name][0].anchor}-{n}"
                            anchors.append(anchor)
                            self.anchor_page[anchor] = ch.page
                            self.test_cites.setdefault(name, []).append((anchor, ch) + where)
                    fence = code_fence(line, fence)
                    if fence is not None or line.startswith("    "):
                        continue
                    h = HEADING.match(line)
                    if h and len(h.group(1)) in (2, 3):
                        level, attrs = len(h.group(1)), h.group(3) or ""
                        numbered = not (ch.frontmatter or re.search(r"(^|\s)(\.unnumbered|-)(\s|\}|$)", attrs.strip("{} ")))
                        if numbered:
                            if level == 2:
                                sec = [sec[0] + 1, 0]
                            else:
                                sec[1] += 1
                        number = (f"{ch.label}.{sec[0]}" + (f".{sec[1]}" if level == 3 else "")) if numbered else None
                        where = (number, title_text(h.group(2)))
                        ident = re.search(r"#([\w:.-]+)", attrs)
                        if level == 2 and re.search(r"\.backmatter\b", attrs) and ch not in self.backmatter_id:
                            self.backmatter_id[ch] = ident.group(1) if ident else None
                    for group in CITATION.finditer(strip_code_spans(line)):
                        for key, _ in citation_items(group.group(1)):
                            if key not in self.cite_where:
                                self.cite_keys.append(key)
                                self.cite_where[key] = ch
                if fence is not None:
                    die(f"{ch.path}: a code block in the prose (```) is not closed before a code chunk")
        self.cite_number = {k: i + 1 for i, k in enumerate(self.cite_keys)}
        for key in self.cite_keys:
            self.anchor_page[f"ref-{key}"] = REFERENCES_PAGE

    def _roots(self, name, seen):
        """The root chunks (files) that NAME's code ends up in."""
        if name in seen:
            return set()
        seen.add(name)
        if name not in self.uses:
            return {name}
        out = set()
        for u in self.uses[name]:
            out |= self._roots(u.name, seen)
        return out

    def _language(self, name, seen):
        """The language of a chunk is that of the file its root tangles to."""
        if name in seen:
            return "c"
        seen.add(name)
        if name not in self.uses:       # a root
            ext = Path(name).suffix
            return {".c": "c", ".h": "c", ".cmake": "cmake", ".gp": "gnuplot",
                    ".py": "python", ".sh": "bash", ".dot": "dot", ".js": "javascript"}.get(ext, "c")
        return self._language(self.uses[name][0].name, seen)

    def header_root(self, path):
        """The root chunk that a C file gets with #include "PATH", or None: the path itself
        without leading ../ ("../examples/ch03.h"), or the one root whose name ends in /PATH
        ("internal.h" is src/internal.h)."""
        if not hasattr(self, "_headers"):
            self._headers = [n for n in self.defs
                             if n not in self.uses and re.match(r"^[a-z]+/[\w./-]+\.h$", n)]
        path = re.sub(r"^(\.\./)+", "", path)
        if path in self._headers:
            return path
        found = [n for n in self._headers if n.endswith("/" + path)]
        return found[0] if len(found) == 1 else None

    def first_def(self, name):
        return self.defs[name][0]



class EditionMode:
    """Where a chapter's text stands, for the reader's edition: "main" (the reading path), "back"
    (back matter), "answers" (the prose of a 练习的参考答案 section in the back matter) or
    "answers-code" (that section from its first code chunk on). Fed the lines of the prose and the
    code chunks in order, it says what the reader's edition keeps."""

    def __init__(self):
        self.mode = "main"
        self.fence = None

    def line(self, line):
        """Whether the reader's edition keeps LINE (headings switch the mode)."""
        self.fence = code_fence(line, self.fence)
        h = HEADING.match(line) if self.fence is None else None
        if h and len(h.group(1)) == 2:
            attrs = h.group(3) or ""
            if self.mode != "main" or re.search(r"\.backmatter\b", attrs):
                answers = re.search(r"\.answers\b", attrs) or ANSWERS_TITLE in h.group(2)
                self.mode = "answers" if answers else "back"
        return self.mode in ("main", "answers")

    def code(self):
        """Whether the reader's edition may print the code chunk that comes next."""
        if self.mode == "answers":
            self.mode = "answers-code"
        return self.mode == "main"


HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(\{[^{}]*\})?\s*$")
PROSE_REF = re.compile(r"<<(.+?)>>")
# [@key], [@a; @b], [@key, 第 3 节]: a citation of book/references.bib (pandoc's syntax)
CITATION = re.compile(r"\[(@[\w:.#$%&+?<>~/-]+[^\[\]]*?)\](?![(\[{])")
REFERENCES_PAGE = "references.html"
TEST_PREFIX = "测试："
# the two editions: the reader's (读本) and the source companion (源码卷, the whole literate program)
COMPANION_APPENDICES = {"B", "C", "D"}     # appendices that only the companion prints
ANSWERS_TITLE = "练习的参考答案"             # a back-matter section whose prose the reader's edition keeps
SOURCE_PDF = "attn-book-source.pdf"
READER_PDF = "attn-book.pdf"
SOURCE_DIR = "source"                       # the companion's HTML pages, beside the reader's
READER_ONLY_PAGES = {"references.html", terms.GLOSSARY_PAGE, terms.SUBJECT_PAGE}     # pages the companion's HTML links to in the reader's folder
# the parts (部分) of the book: the chapter that opens each, and the chapters marked 选读
PARTS = {"1": "注意力本身", "8": "从注意力到模型"}
OPTIONAL_CHAPTERS = {"9"}
OPTIONAL_MARK = "（选读）"


def is_test_name(name):
    return name.startswith(TEST_PREFIX)


def code_fence(line, fence):
    """The open code fence (``` or ~~~) after LINE, given the one open before it, or None."""
    m = re.match(r"^(`{3,}|~{3,})", line)
    if fence is None:
        return m.group(1) if m else None
    if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line.strip(m.group(1)[0]).strip():
        return None
    return fence


def strip_code_spans(text):
    """TEXT with its inline code spans blanked out (a citation inside `…` is no citation)."""
    return re.sub(r"(`+)(?:(?!\1).)+?\1", lambda m: " " * len(m.group(0)), text)


def citation_items(inside):
    """The items of a bracketed citation: [(key, locator)], or [] when it is not a citation."""
    items = []
    for part in inside.split(";"):
        m = re.fullmatch(r"\s*@([\w:.#$%&+?<>~/-]*[\w])\s*(?:,\s*(.*?))?\s*", part)
        if not m:
            return []
        items.append((m.group(1), m.group(2) or ""))
    return items


TABLE_CAPTION = re.compile(r"^: (.+?)\s*\{#(tbl:[\w.-]+)\}[ \t]*$", re.M)
NUMBER_CELL = re.compile(r"^[-−+]?(\d[\d,.]*|\.\d+)(e[-+]?\d+)?\s*%?$|^[-−+]?(\d[\d,.]*)?\s*[×x]\s*10\^")


def is_number_cell(cell):
    c = cell.strip().strip("*").strip()
    if c.startswith("$") and c.endswith("$") and len(c) > 1:
        c = c[1:-1].strip()
    return bool(NUMBER_CELL.match(c.replace("\\,", "").replace(" ", "")))


def align_number_columns(text):
    """In every pipe table, a column whose body cells (the empty ones aside) are all numbers
    and that has no alignment of its own is set flush right."""
    lines = text.split("\n")
    i = 0
    while i + 1 < len(lines):
        sep = lines[i + 1].strip()
        if lines[i].lstrip().startswith("|") and re.fullmatch(r"\|?(\s*:?-+:?\s*\|)+\s*:?-*:?\s*", sep):
            j = i + 2
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            rows = [split_row(r) for r in lines[i + 2:j]]
            cols = split_row(lines[i + 1])
            for k, spec in enumerate(cols):
                cells = [r[k] for r in rows if k < len(r) and r[k].strip()]
                if ":" not in spec and cells and all(is_number_cell(x) for x in cells):
                    cols[k] = "--:"
            lines[i + 1] = "|" + "|".join(cols) + "|"
            i = j
        else:
            i += 1
    return "\n".join(lines)


def split_row(row):
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return re.split(r"(?<!\\)\|", row)


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

# a chapter's goals (::: {.goals} after its opening): a plain box titled 本章目标 (tcolorbox, which
# tools/preamble.tex loads for the misconception boxes)
GOALS_LATEX = ("\\begin{tcolorbox}[breakable, colback=black!3, colframe=black!40, boxrule=.4pt, arc=1.5pt, "
               "left=6pt, right=6pt, top=3pt, bottom=3pt, before skip=1.2ex plus .5ex, after skip=1.6ex plus .5ex, "
               "fonttitle=\\sffamily\\bfseries\\small, coltitle=black, colbacktitle=black!10, title={本章目标}]")

class Writer:
    """Turns the book into Pandoc Markdown, for one target: "html" (a page per chapter), "latex"
    (the PDF) or "epub" (one document; pandoc splits it into chapters and mends the links)."""

    def __init__(self, book, target, edition="source"):
        self.book = book
        self.target = target
        self.edition = edition      # "reader" (读本) or "source" (源码卷, the whole program)
        self.refs = []   # placeholder number -> (anchor, name, number)
        self.in_backmatter = False

    def external(self, anchor):
        """Whether ANCHOR is in the source companion only (the reader's edition links there)."""
        return self.edition == "reader" and anchor in self.book.companion_anchors

    def href(self, anchor):
        page = self.book.anchor_page[anchor]
        if self.target == "html":
            if self.external(anchor):
                return f"{SOURCE_DIR}/{page}#{anchor}"
            if self.edition == "source" and page in READER_ONLY_PAGES:
                return f"../{page}#{anchor}"
            return f"{page}#{anchor}"
        if self.target == "latex" and self.external(anchor):
            return f"{SOURCE_PDF}#{anchor}"
        if self.target == "latex" and self.edition == "source" and page in READER_ONLY_PAGES and page != REFERENCES_PAGE:
            # 术语表 and 术语索引 are printed in the reader's edition only (参考文献 in both)
            return f"{READER_PDF}#{anchor}"
        return f"#{anchor}"

    def srcpage(self, anchor):
        """After a link into the companion, in the reader's PDF: 〔源码卷第 N 页〕."""
        if self.target == "latex" and self.external(anchor):
            return f"`\\nwsrcpage{{{anchor}}}`{{=latex}}"
        return ""

    def raw(self, html=None, latex=None):
        """A raw block for this target (HTML for the web pages, LaTeX for the PDF), or nothing."""
        text = html if self.target == "html" else latex if self.target == "latex" else None
        if not text:
            return ""
        fmt = "html" if self.target == "html" else "latex"
        return f"\n\n```{{={fmt}}}\n{text}\n```\n\n"

    def test_ref(self, name, anchor):
        """A test cited in the prose: 测试 3.7, linked to the test, with an anchor the test links back to."""
        d = self.book.first_def(name)
        return (f"[[测试\u00a0{self.book.test_number[name]}]({self.href(d.anchor)}){{.nwtestref}}]{{#{anchor}}}"
                + self.srcpage(d.anchor))

    def citation(self, ch, inside):
        """[@a; @b] -> a superscript [1,3–5] (GB/T 7714 numeric: numbers in order of first citation,
        runs of three or more collapsed), each number linked to its entry in 参考文献."""
        items = citation_items(inside)
        nums = []
        for key, loc in items:
            if key not in self.book.cite_number:
                die(f"{ch.path}: [@{key}] cites nothing in book/references.bib (no entry with the key {key})")
            nums.append((self.book.cite_number[key], key, loc))
        nums.sort()
        parts, i = [], 0
        while i < len(nums):
            j = i
            while j + 1 < len(nums) and nums[j + 1][0] == nums[j][0] + 1 and not nums[j][2] and not nums[j + 1][2]:
                j += 1
            link = lambda n: f"[{n[0]}]({self.href('ref-' + n[1])})"
            if j - i >= 2:
                parts.append(f"{link(nums[i])}–{link(nums[j])}")
                i = j + 1
            else:
                parts.append(link(nums[i]))
                i += 1
        locs = "".join(md_escape(n[2]) for n in nums if n[2])
        sup = "\\[" + ",".join(parts) + "\\]" + locs
        # a superscript cannot hold a plain space: the locator's spaces become no-break spaces
        return "^" + sup.replace(" ", "\u00a0") + "^"

    def boxes(self, ch, text):
        """::: {.misconception} ... ::: -> a box titled 常见误解 (HTML and EPUB: a styled div whose
        first line is the title; PDF: the nwmisconception environment of tools/preamble.tex);
        ::: {.goals} ... ::: -> the same for a chapter's 本章目标 (PDF: a plain tcolorbox)."""
        lines, out, stack, fence = text.split("\n"), [], [], None
        for line in lines:
            fence = code_fence(line, fence)
            if fence is not None or not line.startswith(":::"):
                out.append(line)
                continue
            m = re.match(r"^:{3,}\s*(.*?)\s*$", line)
            opener = m.group(1)
            if opener:
                box = bool(re.match(r"^\{[^}]*\.misconception\b[^}]*\}$", opener) or opener == "misconception")
                goals = bool(re.match(r"^\{[^}]*\.goals\b[^}]*\}$", opener) or opener == "goals")
                stack.append("misc" if box else "goals" if goals else None)
                if box:
                    self.box_k += 1
                    ident = terms.box_id(opener, ch, self.box_k)
                if box and self.target == "latex":
                    out.append(self.raw(latex=f"\\begin{{nwmisconception}}\\hypertarget{{{ident}}}{{}}\\label{{{ident}}}"))
                elif box:
                    out.append(terms.with_id(line, ident))
                    out.append("\n[常见误解]{.mctitle}\n")
                elif goals and self.target == "latex":
                    out.append(self.raw(latex=GOALS_LATEX))
                elif goals:
                    out.append(line)
                    out.append("\n[本章目标]{.goalstitle}\n")
                else:
                    out.append(line)
            else:
                if not stack:
                    die(f"{ch.path}: a ':::' closes no fenced div")
                box = stack.pop()
                out.append(self.raw(latex="\\end{nwmisconception}" if box == "misc" else "\\end{tcolorbox}")
                           if box and self.target == "latex" else line)
        if any(stack):
            die(f"{ch.path}: a ::: {{.misconception}} box is not closed in the same stretch of prose "
                "(a box cannot hold a code chunk)")
        return "\n".join(out)

    def chunk_link(self, c, text=None):
        return f"[{text or c.number}]({self.href(c.anchor)})" + self.srcpage(c.anchor)

    def docs(self, ch, c):
        text = terms.expand(self, ch, doc_text(c), terms_helpers())
        # "图 @fig:x" would read 图 图 1.2: the reference says 图 (表) itself
        text = re.sub(r"图\s*@fig:", "@fig:", text)
        text = re.sub(r"表\s*@tbl:", "@tbl:", text)
        if self.target != "latex" and c is getattr(ch, "title_chunk", None) and chapter_label(ch):
            # the chapter's heading says which chapter it is (the PDF's ctexbook does that itself)
            text = re.sub(r"^#\s+", f"# [{chapter_label(ch)}]{{.chnum}} ", text, count=1, flags=re.M)
        # numbered figure captions: ![说明](figures/x){#fig:x} -> ![图 1.2　说明](...)
        def caption(m):
            num, _ = self.book.figures[m.group(3)]
            return f"![图 {num}　{m.group(1)}]({m.group(2)}){{#{m.group(3)}"
        text = re.sub(r"!\[([^\]]*)\]\(([^)]*)\)\{#(fig:[\w.-]+)", caption, text)
        if self.target == "latex":
            # the PDF figures are drawn at the text width with labels at 10 pt: include them
            # at that size (the HTML keeps its own widths)
            text = re.sub(r"(\]\([^)]*\)\{#fig:[^}]*?)\s*width=\d+%", r"\1 width=100%", text)
        # @fig:x in the prose -> a link that reads 图 1.2
        def figref(m):
            if m.group(1) not in self.book.figures:
                die(f"{ch.path}: unknown figure @{m.group(1)}")
            num, _ = self.book.figures[m.group(1)]
            return f"[图 {num}]({self.href(m.group(1))})" + self.srcpage(m.group(1))
        text = re.sub(r"@(fig:[\w.-]*\w)", figref, text)
        # tables: ": 说明 {#tbl:x}" under a table -> a caption that reads 表 1.2　说明;
        # @tbl:x in the prose -> a link; columns of numbers are set flush right
        def tcaption(m):
            num, _ = self.book.tables[m.group(2)]
            return f": 表 {num}　{m.group(1)} []{{#{m.group(2)}}}"
        text = TABLE_CAPTION.sub(tcaption, text)
        def tblref(m):
            if m.group(1) not in self.book.tables:
                die(f"{ch.path}: unknown table @{m.group(1)}")
            num, _ = self.book.tables[m.group(1)]
            return f"[表 {num}]({self.href(m.group(1))})" + self.srcpage(m.group(1))
        text = re.sub(r"@(tbl:[\w.-]*\w)", tblref, text)
        text = align_number_columns(text)
        if self.target == "html" and self.edition == "source":
            # (a caption may hold links, so match the image's target, not its whole caption)
            text = re.sub(r"(\]\()(figures/[\w.-]+\)\{#fig:)", r"\1../\2", text)
        # [本章的后记](#backmatter): a link to the chapter's back matter (its first section), which the
        # reader's edition leaves to the companion (the PDF adds 〔源码卷第 N 页〕)
        def backmatter(m):
            ident = self.book.backmatter_id.get(ch)
            if not ident:
                die(f"{ch.path}: a link to #backmatter, but the chapter's first back-matter heading has no {{#id}}")
            return f"](#{ident})"
        text = re.sub(r"\]\(#backmatter\)", backmatter, text)
        # links to explicit ids on other pages
        text = re.sub(r"\]\(#([\w:.-]+)\)(\{[^{}]*\})?",
                      lambda m: f"]({self.href(m.group(1))}){m.group(2) or ''}{self.srcpage(m.group(1))}"
                      if m.group(1) in self.book.anchor_page else m.group(0), text)
        # <<chunk name>> in the prose -> a link to the chunk's first definition; <<测试：…>> -> 测试 3.7
        anchors = iter(self.book.cite_anchors.get(c, []))
        def prose_ref(m):
            name = m.group(1)
            if name not in self.book.defs:
                return m.group(0)
            if name in self.book.test_number:
                anchor = next(anchors, None)
                if anchor is None:
                    die(f"{ch.path}: the test references in the prose were counted wrongly (<<{name}>>)")
                return self.test_ref(name, anchor)
            d = self.book.first_def(name)
            return f"[〈{md_escape(name)} {d.number}〉]({self.href(d.anchor)}){{.nwref}}" + self.srcpage(d.anchor)
        text = PROSE_REF.sub(prose_ref, text)
        # [@key] -> a numbered citation (code spans left alone)
        def cite(m):
            return self.citation(ch, m.group(2)) if citation_items(m.group(2)) else m.group(0)
        text = re.sub(r"(`+)(?:(?!\1).)+?\1|" + CITATION.pattern,
                      lambda m: m.group(0) if m.group(0).startswith("`") else cite(m), text)
        text = self.boxes(ch, text)
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
            head_name = f"[〈{name} {first.number}〉]({self.href(first.anchor)})" + self.srcpage(first.anchor)
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
        lang = book.language.get(c.name, "c")
        if lang == "c":
            # #include "header.h" of a header that the book tangles: a link to its root chunk,
            # set as the path itself (the empty number tells resolve_refs so)
            def include(m):
                root = book.header_root(m.group(2))
                if root is None:
                    return m.group(0)
                self.refs.append((book.first_def(root).anchor, m.group(2), ""))
                return f'{m.group(1)}"NWxREF{len(self.refs) - 1:04d}x"'
            code = re.sub(r'^([ \t]*#[ \t]*include[ \t]+)"([^"\n]+)"', include, code, flags=re.M)
        fence = "~" * max(4, 1 + max((len(m) for m in re.findall(r"~+", code)), default=0))
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
        # a test: its number (测试 3.7) in the header, and the places in the prose that cite it
        testno = book.test_number.get(c.name)
        if testno and idx == 0:
            cites = []
            for anchor, where_ch, number, title in book.test_cites.get(c.name, []):
                if number is None:      # before the chapter's first section, or in the preface
                    label = chapter_label(where_ch) or title_text(where_ch.title)
                elif self.target == "latex":
                    label = f"§{number}"
                else:                   # the web pages do not number their sections
                    label = f"§{number} {title}"
                link = f"[{md_escape(label)}]({self.href(anchor)})"
                if link not in cites:
                    cites.append(link)
            if cites:
                info.append("正文引用：" + "、".join(cites) + "。")
        testtag = f" [测试\u00a0{testno}]{{.nwtestno}}" if testno and idx == 0 else ""
        begin = end = ""
        test = book.test_only.get(c.name, False)
        if self.target == "latex":
            tag = f"`\\nwtagbox{{{c.number}}}`{{=latex}}"
            foot = "`{\\footnotesize{}`{=latex}" + "　".join(info) + "`}`{=latex}"
            # \nwchunk keeps the header with the first lines, lets only chunks with long lines
            # break them (line breaking costs XeLaTeX time on every line), and names the chunk
            # for the （续） line at the top of a page it runs onto
            wide = any(code_width(line, self.refs) > CODE_COLUMNS for line in code.split("\n"))
            # (the companion labels every chunk: the reader's edition prints its page)
            label = f"\\label{{{c.anchor}}}" if self.edition == "source" else ""
            begin = (f"```{{=latex}}\n\\nwchunk{{{code.count(chr(10)) + 1}}}{{{int(wide)}}}"
                     f"{{{tex_escape(c.name)}}}{{{c.number}}}{chr(92) + 'nwtestchunk' if test else ''}{label}\n```\n\n")
            end = "\n```{=latex}\n\\nwendchunk\n```\n"
            if testtag:
                testtag = f" `\\nwtestno{{测试~{testno}}}`{{=latex}}"
        else:
            tag = f"[{c.number}]{{.nwtag}}"
            foot = f"[{'　'.join(info)}]{{.nwinfo}}"
            if test and self.target == "html" and not self.in_backmatter:
                # a chunk that only the tests use, in the reading path: folded, its name (what it
                # checks) on one line (in the back matter, which is folded itself, it is shown open)
                plus = "+" if idx > 0 else ""
                number = (f'<span class="nwtestno">测试&nbsp;{testno}</span>' if testno and idx == 0
                          else '<span class="nwtestnote">测试</span>')
                summary = (f'<span class="nwtag">{c.number}</span> '
                           f'〈{html.escape(c.name)}&nbsp;{first.number}〉{plus}≡ {number}')
                return (f"::: {{.nwchunk .nwtest #{c.anchor}}}\n"
                        f"```{{=html}}\n<details><summary>{summary}</summary>\n```\n\n"
                        f"{fence} {{.{lang}}}\n{code}\n{fence}\n\n"
                        f"{foot}\n\n"
                        f"```{{=html}}\n</details>\n```\n"
                        f":::\n")
        kind = " .nwtest" if test else ""
        # (the PDF: no page break between the header and the code)
        keep = "```{=latex}\n\\nopagebreak\n```\n\n" if self.target == "latex" else ""
        return (f"::: {{.nwchunk{kind} #{c.anchor}}}\n"
                f"{begin}"
                f"[{tag} {head_name} {sign}{testtag}]{{.nwname}}\n\n{keep}"
                f"{fence} {{.{lang}}}\n{code}\n{fence}\n\n"
                f"{foot}\n"
                f"{end}"
                f":::\n")

    def chapter(self, ch):
        self.in_backmatter = False
        self.box_k = 0
        self.mode = EditionMode()
        self.secno = [0, 0]
        parts = []
        for c in ch.chunks:
            if c.kind == "docs":
                text = self.docs(ch, c)
                if c is getattr(ch, "title_chunk", None) and ch.label in OPTIONAL_CHAPTERS:
                    text = re.sub(r"^(#\s+.*?)(\s*\{[#.][^{}]*\})?\s*$", lambda m: m.group(1) + OPTIONAL_MARK +
                                  (m.group(2) or ""), text, count=1, flags=re.M)
                text = self.edition_lines(ch, text)
                parts.append(self.backmatter(ch, text))
            elif self.edition != "reader" or (self.mode.code() and c.reader):
                parts.append("\n" + self.code(ch, c) + "\n")
            else:                       # (a chunk left to the companion still ends a paragraph)
                parts.append("\n\n")
        if self.in_backmatter:
            parts.append(self.raw(html="</details>", latex="\\nwendbackmatter"))
            if self.target == "epub":
                parts.append("\n\n:::\n")
        return "".join(parts)

    def edition_lines(self, ch, text):
        """The lines of the prose that this edition prints (the reader's edition: not the back matter
        but the words of its 练习的参考答案; a 练习的参考答案 heading as a plain section), with the
        section numbers of the PDF in the headings of the web pages (9.3 标题)."""
        out, fence = [], None
        for line in text.split("\n"):
            keep = self.mode.line(line)
            fence = code_fence(line, fence)
            h = HEADING.match(line) if fence is None else None
            if self.edition == "reader":
                if not keep:
                    continue
                if h and len(h.group(1)) == 2 and h.group(3):
                    attrs = re.sub(r"\s*\.backmatter\b", "", h.group(3))
                    line = line[:h.start(3)] + ("" if attrs.strip("{} ") == "" else attrs)
                    h = HEADING.match(line)
                if h and out and out[-1].strip():
                    out.append("")          # (the lines dropped before it may have held the blank line)
            if h and self.target == "html" and len(h.group(1)) in (2, 3) and not ch.frontmatter:
                attrs = (h.group(3) or "").strip("{} ")
                if not re.search(r"(^|\s)(\.unnumbered|-)(\s|$)", attrs):
                    if len(h.group(1)) == 2:
                        self.secno = [self.secno[0] + 1, 0]
                        number = f"{ch.label}.{self.secno[0]}"
                    else:
                        self.secno[1] += 1
                        number = f"{ch.label}.{self.secno[0]}.{self.secno[1]}"
                    line = f"{h.group(1)} [{number}]{{.secno}} {h.group(2)}" + (f" {h.group(3)}" if h.group(3) else "")
            out.append(line)
        return "\n".join(out)

    def backmatter(self, ch, text):
        """The back matter: from the first level-2 heading with the class .backmatter to the end of
        the chapter. HTML: each of its sections folded (<details>, the heading as its summary);
        PDF: set small, after a rule (\\nwbackmatter); EPUB: each section titled 后记：…, its
        content in a div set compactly."""
        out, fence = [], None
        for line in text.split("\n"):
            fence = code_fence(line, fence)
            h = HEADING.match(line) if fence is None else None
            if h and len(h.group(1)) == 2:
                marked = bool(re.search(r"\.backmatter\b", h.group(3) or ""))
                if marked and not self.in_backmatter:
                    self.in_backmatter = True
                    out.append(self.raw(html='<p class="bmstart" role="separator"><span>后记</span></p>',
                                        latex="\\nwbackmatter"))
                elif self.in_backmatter:
                    out.append(self.raw(html="</details>"))
                    if self.target == "epub":
                        out.append("\n\n:::\n\n")
                if self.in_backmatter and self.target == "epub":
                    # EPUB: each section of the back matter is a chapter-level section of its own
                    # (a file of its own, a sibling of 练习 in the navigation), titled 后记：…, its
                    # content in a div set compactly
                    out.append(re.sub(r"^##\s+", "## 后记：", line, count=1))
                    out.append("\n\n::: {.backmatter}\n\n")
                    continue
                if self.in_backmatter:
                    out.append(self.raw(html='<details class="backmatter"><summary>'))
                    out.append(line)
                    out.append(self.raw(html="</summary>"))
                    continue
            out.append(line)
        return "\n".join(out)

    def indexes(self):
        """The index of chunks and the index of identifiers, as Markdown."""
        book = self.book
        latex = self.target == "latex"
        out = ["# 代码块索引 {#index-chunks .unnumbered}\n\n"]
        if latex:
            out.append("```{=latex}\n\\markboth{代码块索引}{代码块索引}\n```\n\n")
        out.append("每个代码块的名字、定义它的块（第一个号码）和使用它的块。"
                   "中文名按拼音排列，与英文字母混排。\n\n")
        entries = []
        for name in sorted(book.defs, key=sort_key):
            defs = book.defs[name]
            users = book.uses.get(name, [])
            s = f"〈{md_escape(name)}〉：" + "、".join(self.chunk_link(d) for d in defs)
            if users:
                s += "；用于 " + "、".join(self.chunk_link(u) for u in users)
            else:
                s += "；根块"
            entries.append(s)
        out.append(self.index_list(entries))
        out.append("\n# 标识符索引 {#index-identifiers .unnumbered}\n\n")
        if latex:
            out.append("```{=latex}\n\\markboth{标识符索引}{标识符索引}\n```\n\n")
        out.append("C 标识符，定义它的块（**粗体**）和使用它的块。\n\n")
        entries = []
        for ident in sorted(book.ident_defs, key=sort_key):
            defs = book.ident_defs[ident]
            uses = [u for u in book.ident_uses.get(ident, []) if u not in defs]
            s = f"`{ident}`：" + "、".join(f"**{self.chunk_link(d)}**" for d in defs)
            if uses:
                s += "、" + "、".join(self.chunk_link(u) for u in uses)
            entries.append(s)
        out.append(self.index_list(entries))
        return "".join(out)

    def references(self):
        """参考文献: the entries the book cites, numbered in the order of their first citation. Pandoc's
        citeproc formats them (GB/T 7714-2015, numeric); the citations it is given first, one per
        entry in that order, number them, and are removed from its output (nwcites)."""
        book = self.book
        out = ["# 参考文献 {#references .unnumbered}\n\n"]
        if self.target == "latex":
            out.append("```{=latex}\n\\markboth{参考文献}{参考文献}\n```\n\n")
        if not book.cite_keys:
            out.append("（正文还没有引用文献。）\n")
            return "".join(out)
        out.append("正文里上标的编号（如 [1]）指向这里同号的一条，按在书中第一次被引用的先后排列"
                   "（GB/T 7714—2015 的顺序编码制）。\n\n")
        cites = "".join(f"[@{k}]" for k in book.cite_keys)
        if self.target == "latex":
            out.append(f"```{{=latex}}\n%NWCITES\n```\n\n{cites}\n\n```{{=latex}}\n%NWCITES\n```\n\n")
        else:
            out.append(f"::: {{.nwcites}}\n{cites}\n:::\n\n")
        out.append("::: {#refs}\n:::\n")
        return "".join(out)

    def index_list(self, entries):
        """HTML: a bulleted list. PDF: two columns of entries with a hanging indent, no bullets."""
        if self.target != "latex":
            return "".join(f"- {e}\n" for e in entries)
        return ("```{=latex}\n\\begin{nwindex}\n```\n\n" + "\n\n".join(entries) +
                "\n\n```{=latex}\n\\end{nwindex}\n```\n")


# how many columns of code the reader's PDF prints on a line without wrapping it (↪): DejaVu Sans
# Mono at 0.82 of \small (5.2 pt a column) in the shaded box of a 16.2 cm text block holds 88 (89
# wrap; measured), a Chinese character taking two of them (tools/preamble.tex, \xeCJKVerbAddon).
# A chunk reference, set in the sans-serif font, is counted as wide as it would be in the
# monospaced one, which is wider. tools/weave.py widecode lists the reader's lines that are wider.
CODE_COLUMNS = 88


def code_width(line, refs):
    """The width of a line of code in monospaced columns: a Chinese character takes two, a
    chunk reference is set as 〈name number〉."""
    def width(text):
        return sum(2 if ord(ch) >= 0x2E80 else 1 for ch in text)
    total = 0
    for i, part in enumerate(PLACEHOLDER.split(line.expandtabs())):
        if i % 2 == 0:
            total += width(part)
        else:
            _, name, number = refs[int(part)]
            total += width(name) + (len(number) + 5 if number else 0)
    return total


def wide_code_lines(book, limit=CODE_COLUMNS):
    """The code lines that the reader's PDF prints wider than LIMIT columns (they would wrap, ↪):
    in its code chunks, and in the code blocks (```) of the prose it keeps. A list of
    (file, line, width, where, text), where is 〈chunk number〉 or "prose"."""
    def width(text):
        return sum(2 if ord(ch) >= 0x2E80 else 1 for ch in text.expandtabs())
    out = []
    for ch in book.chapters:
        if not ch.reader:
            continue
        mode = EditionMode()
        for c in ch.chunks:
            if c.kind == "code":
                if not (mode.code() and c.reader):
                    continue
                text = "".join(p[1] if p[0] == "text" else "\n" if p[0] == "nl" else
                               f"〈{p[1]} {book.first_def(p[1]).number}〉" if p[0] == "use" else ""
                               for p in c.pieces).rstrip("\n")
                for i, line in enumerate(text.split("\n")):
                    if width(line) > limit:
                        out.append((ch.path, c.line + 1 + i, width(line), f"〈{c.name} {c.number}〉", line))
                continue
            fence = None
            for i, line in enumerate(doc_text(c).split("\n")):
                keep = mode.line(line)
                opened = fence
                fence = code_fence(line, fence)
                if keep and opened is not None and fence is not None and width(line) > limit:
                    out.append((ch.path, c.line + i, width(line), "prose", line))
    return out


def report_wide_code(sources, limit):
    """tools/weave.py widecode: print the reader's wide code lines, file:line first; 1 if any."""
    book = load_book(sources)
    found = wide_code_lines(book, limit)
    for path, line, w, where, text in found:
        print(f"{path}:{line}: {w} columns, {where}: {text.strip()}")
    print(f"weave: {len(found)} code line(s) of the reader's edition wider than {limit} columns",
          file=sys.stderr)
    return 1 if found else 0


_PINYIN = None


def pinyin_table():
    """Character -> its most common Mandarin reading, from the xpinyin package's database
    (TeX Live's texlive-lang-chinese, made from Unicode's Unihan kMandarin readings)."""
    global _PINYIN
    if _PINYIN is None:
        _PINYIN = {}
        try:
            path = subprocess.run(["kpsewhich", "xpinyin-database.def"], capture_output=True,
                                  text=True).stdout.strip()
            text = Path(path).read_text(encoding="utf-8") if path else ""
        except (OSError, FileNotFoundError):
            text = ""
        for m in re.finditer(r"\\XPYU\{(.)\}\{\d+\}\{([^,}]+)", text):
            _PINYIN.setdefault(m.group(1), m.group(2))
    return _PINYIN


TONES = {"āēīōūǖ": "1", "áéíóúǘ": "2", "ǎěǐǒǔǚ": "3", "àèìòùǜ": "4"}
PLAIN = str.maketrans("āēīōūǖáéíóúǘǎěǐǒǔǚàèìòùǜü", "aeiouvaeiouvaeiouvaeiouvv")


def sort_key(s):
    """Index order: Chinese characters by pinyin (then tone), mixed with Latin letters, so that
    〈分数块〉 comes under f next to 〈flash_block〉; characters without a reading by code point."""
    table = pinyin_table()
    letters, tones = [], []
    for ch in s:
        py = table.get(ch)
        if py:
            letters.append(py.translate(PLAIN))
            tones.append(next((t for marks, t in TONES.items() if any(c in py for c in marks)), "5"))
        else:
            letters.append(ch.lower())
    return ("".join(letters), "".join(tones), s)


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

def html_jobs(book):
    """One pandoc job per HTML page and a contents job, for each edition: the reader's pages in the
    site's folder (the chapters, 参考文献 ...), the companion's in its folder source/ (every chapter
    whole, the appendices B–D, the chunk and identifier indexes)."""
    jobs = {}
    for edition in ("reader", "source"):
        w = Writer(book, "html", edition)
        if edition == "reader":
            pages = [(ch.page, ch.title, ch, None) for ch in book.chapters if ch.reader]
            pages += [(stem + ".html", title, None, (md, extra)) for stem, title, md, extra in reader_back_pages(book, w)]
        else:
            pages = [(ch.page, ch.title, ch, None) for ch in book.chapters]
            pages += [("book-index.html", "代码块与标识符索引", None, "indexes")]
        prefix = "" if edition == "reader" else "source-"
        links = html_edition_links(edition)
        for i, (page, title, ch, what) in enumerate(pages):
            w.refs = []
            extra = {}
            if ch:
                md = w.chapter(ch)
            elif what == "indexes":
                md = w.indexes()
            else:
                md, extra = what
            before, after = sidebar(pages, page, edition)
            args = ["-f", PANDOC_MD, "-t", "html5", "--standalone", "--mathml",
                    "--template", str(TOOLS / "book.html"), "--toc", "--toc-depth=2",
                    "--default-image-extension=svg", "--highlight-style=tango",
                    "-M", f"pagetitle={page_title(ch, title)}", "-V", f"booktitle={BOOK_TITLE}",
                    "-V", f"booktitle-main={BOOK_MAIN_TITLE}", "-V", f"booktitle-sub={BOOK_SUBTITLE}",
                    "-V", "lang=zh-CN", "-V", f"sidebar-before={before}", "-V", f"sidebar-after={after}",
                    *links]
            if i > 0:
                args += ["-V", f"prev={pages[i-1][0]}", "-V", f"prevtitle={page_title(pages[i-1][2], pages[i-1][1])}"]
            else:       # before the first page: the contents
                args += ["-V", "prev=index.html", "-V", "prevtitle=目录"]
            if i + 1 < len(pages):
                args += ["-V", f"next={pages[i+1][0]}", "-V", f"nexttitle={page_title(pages[i+1][2], pages[i+1][1])}"]
            jobs[prefix + Path(page).stem + ".html"] = {
                "target": "html", "args": args, "md": md,
                "refs": [[w.href(anchor), name, number] for anchor, name, number in w.refs], **extra}
        jobs[prefix + "contents.html"] = {"target": "contents", "edition": edition,
                                          "pages": [[page, page_title(ch, title),
                                                     part_label(ch.label) if ch and not ch.appendix and ch.label in PARTS else ""]
                                                    for page, title, ch, _ in pages],
                                          "sidebar": sidebar(pages, None, edition)[0], "links": links}
    return jobs


def html_edition_links(edition):
    """The template's variables that differ between the editions' pages: the way to the site's
    folder (the companion's pages are in source/), the edition's PDF, its name."""
    if edition == "reader":
        return ["-V", "root=", "-V", "pdf=attn-book.pdf", "-V", "edition=读本"]
    return ["-V", "root=../", "-V", "pdf=../attn-book-source.pdf", "-V", "edition=源码卷", "-V", "source=true"]


def page_title(ch, title):
    """A page's title as plain text, with its chapter: 第 4 章　为什么要除以 √dₖ."""
    label = chapter_label(ch)
    return (label + "　" if label else "") + title_text(title)


def sidebar(pages, current, edition="reader"):
    """The edition's contents for the side bar, as two pieces of HTML: up to and including the link
    of the current page's entry (the page's own contents follows it), and the rest. The chapters
    are grouped into their parts; the companion's entries are marked 源码卷, and each edition's
    bar ends with the way to the other."""
    before, after = [], []
    seen = False
    for page, title, ch, *_ in pages:
        if ch is not None and not ch.appendix and ch.label in PARTS:
            (after if seen else before).append(f'<li class="part">{html.escape(part_label(ch.label))}</li>')
        label = chapter_label(ch)
        num = f'<span class="chnum">{label}</span>' if label else ""
        link = f'{num}{html.escape(title_text(title))}</a>'
        cls = ' class="src"' if edition == "source" else ""
        if page == current:
            before.append(f'<li class="current{" src" if edition == "source" else ""}"><a href="{page}" aria-current="page">{link}')
            after.append("</li>")
            seen = True
        else:
            (after if seen else before).append(f'<li{cls}><a href="{page}">{link}</li>')
    if edition == "reader":
        other = (f'<li class="src other"><a href="{SOURCE_DIR}/index.html">源码卷：完整的程序、测试与索引</a></li>')
    else:
        other = ('<li class="other"><a href="../index.html">回到读本</a></li>'
                 f'<li class="src"><a href="../{REFERENCES_PAGE}">参考文献（读本）</a></li>')
    (after if seen else before).append(other)
    return "\n".join(before), "\n".join(after)


CHINESE_NUMBERS = "零一二三四五六七八九十"


def part_label(label):
    """第一部分　注意力本身: the part that chapter LABEL opens."""
    n = sorted(PARTS, key=int).index(label) + 1
    return f"第{CHINESE_NUMBERS[n]}部分　{PARTS[label]}"


def write_contents(job, outdir):
    """index.html (the contents page, from each page's own table of contents) of an edition; for
    the reader's edition also the search index, the stylesheet and the scripts. The pages must be
    written already. The companion's pages are in OUTDIR/source."""
    source = job.get("edition") == "source"
    site = outdir
    if source:
        outdir = outdir / SOURCE_DIR
    pages = job["pages"]
    tocs = []
    for page, title, *part in pages:
        out = (outdir / page).read_text(encoding="utf-8")
        m = re.search(r'<div id="TOC"[^>]*>(.*?)</div>', out, re.S)
        toc = m.group(1) if m else ""
        toc = re.sub(r'href="#', f'href="{page}#', toc)
        tocs.append((page, title, toc, part[0] if part else ""))
    # the contents page
    body = ['<ul class="contents">']
    for page, title, toc, part in tocs:
        if part:
            body.append(f'<li class="part">{html.escape(part)}</li>')
        label, _, rest = title.partition("　")
        if rest and re.match(r"(第 \d+ 章|附录 [A-Z])$", label):
            text = f'<span class="chnum">{html.escape(label)}</span>{html.escape(rest)}'
        else:
            text = html.escape(title)
        cls = ' class="src"' if source else ""
        body.append(f'<li{cls}><a href="{page}">{text}</a>{subtoc(toc)}</li>')
    body.append("</ul>")
    if source:
        md = ("# " + BOOK_TITLE + "：源码卷 {.unnumbered}\n\n"
              "源码卷是整本文学程序：读本的每一章，连同它的后记（测试、图的数据程序、参数检查和其余的代码），"
              "附录 B–D，代码块索引和标识符索引。读本里引用的测试和代码块都链接到这里。"
              "排好版的源码卷是 [PDF](../attn-book-source.pdf){.pdflink}；[回到读本](../index.html)。\n\n")
    else:
        md = ("# " + BOOK_TITLE + " {.unnumbered}\n\n"
              "本书讲 Transformer 的注意力机制，从全连接层一直讲到一个会写诗的小模型。"
              "这里是读本：讲解、练习和答案。书中的代码块合起来就是 C 语言库 `libattn`，"
              "书中给出的每个数都由同一章的测试检查；完整的程序和测试在[源码卷](source/index.html)里。"
              "也可以读排好版的 [PDF](attn-book.pdf){.pdflink}，或者把 [EPUB](attn-book.epub) 导入阅读器。\n\n")
    md += "```{=html}\n" + "\n".join(body) + "\n```\n"
    args = ["-f", PANDOC_MD, "-t", "html5", "--standalone", "--mathml",
            "--template", str(TOOLS / "book.html"), "-M", f"pagetitle={BOOK_TITLE}",
            "-V", f"booktitle={BOOK_TITLE}", "-V", f"booktitle-main={BOOK_MAIN_TITLE}",
            "-V", f"booktitle-sub={BOOK_SUBTITLE}", "-V", "lang=zh-CN", "-V", "contents=true",
            "-V", f"sidebar-before={job.get('sidebar', '')}", *job.get("links", []),
            "-V", f"next={pages[0][0]}", "-V", f"nexttitle={pages[0][1]}"]
    write_output(outdir / "index.html", pandoc(args, md))
    if source:
        return
    for asset in ("book.css", "search.js", "book.js"):
        write_if_changed(site / asset, (TOOLS / asset).read_text(encoding="utf-8"))
    write_search_index(site, [(page, title) for page, title, _, _ in tocs])


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
    write_output(outdir / "search-index.js", js)


def math_plain(m):
    """A <math> element as plain Unicode text, from its TeX annotation: √dₖ, not dk."""
    tex = re.search(r'<annotation encoding="application/x-tex">(.*?)</annotation>', m, re.S)
    if tex:
        return math_to_text(html.unescape(tex.group(1)).strip())
    return html.unescape(re.sub(r"<[^>]+>", "", m))


def plain(fragment):
    fragment = re.sub(r"<math\b.*?</math>", lambda m: html.escape(math_plain(m.group(0))), fragment, flags=re.S)
    fragment = re.sub(r"</?(p|li|h[1-6]|div|pre|tr|td|th|br|figcaption)\b[^>]*>", " ", fragment)
    text = html.unescape(re.sub(r"<[^>]+>", "", fragment))
    return re.sub(r"\s+", " ", text).strip()


def subtoc(toc):
    """Keep only the section level of a page's table of contents."""
    m = re.search(r"<ul>\s*<li>.*?<ul>(.*?)</ul>\s*</li>\s*</ul>", toc, re.S)
    return f'<ul class="sections">{m.group(1)}</ul>' if m else ""


def strip_md(s):
    return re.sub(r"[`*]", "", s or "")


def title_text(s):
    """A Markdown title as plain text, formulas as Unicode (for <title>, alt text, the search
    index and the contents): "为什么要除以 $\\sqrt{d_k}$" -> "为什么要除以 √dₖ"."""
    s = re.sub(r"\$([^$]+)\$", lambda m: math_to_text(m.group(1)), s or "")
    return strip_md(s).replace("\\", "")


def chapter_label(ch):
    """第 3 章, 附录 A, or nothing (the preface)."""
    if ch is None or ch.frontmatter:
        return ""
    return f"附录 {ch.label}" if ch.appendix else f"第 {ch.label} 章"


# ---------------------------------------------------------------- LaTeX

LATEX_ARGS = ["-f", PANDOC_MD, "-t", "latex", "--top-level-division=chapter",
              "--number-sections", "--highlight-style=tango", "--default-image-extension=pdf"]


def latex_jobs(book, version, epoch):
    """Both editions' LaTeX: the reader's (attn-book.tex, chapters/NAME.tex) and the source
    companion's (attn-book-source.tex, chapters-source/NAME.tex)."""
    return {**edition_latex_jobs(book, version, epoch, "reader"),
            **edition_latex_jobs(book, version, epoch, "source")}


# what each edition's PDF is called, the line on its title page, and its job names' prefix
EDITIONS = {
    "reader": {"master": "attn-book", "prefix": "", "dir": "chapters", "name": "读本",
               "note": "讲解、练习与答案；完整的程序、测试和索引在《源码卷》里"},
    "source": {"master": "attn-book-source", "prefix": "source-", "dir": "chapters-source", "name": "源码卷",
               "note": "一本文学程序：讲解与代码交替出现，\\\\代码块合起来就是 C 语言库 \\texttt{libattn}"},
}


def reader_back_pages(book, w):
    """The pages after the chapters of the reader's edition, as (stem, Markdown, extra job keys):
    参考文献 (and the glossary and subject index, when the book has them)."""
    return [("references", "参考文献", w.references(), {"citeproc": citeproc_files(book)})] + (
        [("glossary", "术语表", terms.glossary(w, terms_helpers()), {}),
         ("subject-index", "术语索引", terms.subject_index(w, terms_helpers()), {})] if book.terms else [])


def edition_latex_jobs(book, version, epoch, edition):
    """One pandoc job per chapter of EDITION (a LaTeX fragment) and one for each page after the
    chapters; the master job makes the edition's .tex file, which \input's the fragments."""
    ed = EDITIONS[edition]
    w = Writer(book, "latex", edition)
    jobs = {}
    body = []
    in_main = in_appendix = False
    # front matter in roman numerals from the title page on, the body from arabic 1
    date = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc)
    if edition == "reader":
        # the pages of the companion's chunks and sections, read from its .aux (weave.py srcpages)
        body.append("\\InputIfFileExists{source-pages}{}{}\n")
    body.append(f"\\renewcommand{{\\nwedition}}{{{ed['name']}}}\\renewcommand{{\\nweditionnote}}{{{ed['note']}}}\n")
    body.append("\\frontmatter\n"
                f"\\nwtitlepage{{{tex_escape(BOOK_MAIN_TITLE)}}}{{{tex_escape(BOOK_SUBTITLE)}}}"
                f"{{{tex_escape(version)}}}{{{f'{date.year} 年 {date.month} 月 {date.day} 日' if epoch else ''}}}\n"
                "\\cleardoublepage\n"      # (the contents on a right-hand page; the chapters open on any page)
                "{\\hypersetup{linkcolor=}\\setcounter{tocdepth}{1}\\tableofcontents}\n")
    for ch in book.chapters:
        if edition == "reader" and not ch.reader:
            continue
        if ch.frontmatter:
            body.append("\\setcounter{secnumdepth}{-1}\n")
        elif not in_main:
            body.append("\\mainmatter\n\\setcounter{secnumdepth}{2}\n")
            in_main = True
        if ch.appendix and not in_appendix:
            body.append("\\nwendparts\n\\appendix\n")
            in_appendix = True
        if not ch.appendix and ch.label in PARTS:
            body.append(f"\\nwpart{{{tex_escape(PARTS[ch.label])}}}\n")
        stem = Path(ch.path).stem
        body.append(f"\\input{{{ed['dir']}/{stem}}}\n")
        w.refs = []
        md = w.chapter(ch)
        jobs[ed["prefix"] + stem + ".latex"] = {"target": "latex", "args": LATEX_ARGS, "md": md,
                                                "refs": latex_refs(w)}
    if not in_appendix:
        body.append("\\nwendparts\n")
    body.append("\\backmatter\n\\input{chapters/references}\n")
    w.refs = []
    if edition == "reader":
        for stem, _, md, extra in reader_back_pages(book, w):
            if stem != "references":
                body.append(f"\\input{{chapters/{stem}}}\n")
            jobs[stem + ".latex"] = {"target": "latex", "args": LATEX_ARGS, "md": md, "refs": [], **extra}
    else:
        body.append(f"\\input{{{ed['dir']}/indexes}}\n")
        jobs[ed["prefix"] + "indexes.latex"] = {"target": "latex", "args": LATEX_ARGS, "md": w.indexes(), "refs": []}
    # The master: pandoc's own template around the \input lines. The hidden sample (a code block,
    # a table, an image) makes pandoc's preamble define what the chapters use.
    sample = ("```{=latex}\n\\iffalse\n```\n\n~~~~ {.c}\nint x;\n~~~~\n\n| a |\n|--:|\n| 1 |\n\n"
              "![x](x)\n\n```{=latex}\n\\fi\n```\n\n")
    md = sample + "```{=latex}\n" + "".join(body) + "```\n"
    title = BOOK_TITLE if edition == "reader" else f"{BOOK_TITLE}（{ed['name']}）"
    args = ["-f", PANDOC_MD, "-t", "latex", "--standalone", "--top-level-division=chapter",
            "--number-sections", "--highlight-style=tango",
            "-H", str(TOOLS / "preamble.tex"),
            "-V", "documentclass=ctexbook", "-V", "classoption=fontset=none",
            "-V", "classoption=zihao=-4", "-V", "classoption=openany", "-V", "papersize=a4",
            "-V", "geometry:margin=2.4cm", "-V", "colorlinks=true",
            "-V", "linkcolor=blue!50!black", "-V", "urlcolor=blue!50!black",
            "-V", f"title-meta={title}", "-V", f"author-meta={BOOK_AUTHOR}",
            "-V", f"subject={BOOK_SUBJECT}", "-V", "keywords=attention, Transformer, C, noweb",
            "-V", "csl-refs=true"]
    jobs[ed["master"] + ".master"] = {"target": "latex", "args": args, "md": md, "refs": [], "drop_sample": True}
    return jobs


def latex_refs(w):
    """The chunk references in a LaTeX job's code: the anchor, or for a chunk that only the
    companion prints (in the reader's edition) the companion's file and anchor."""
    return [[(f"{SOURCE_PDF}#{a}" if w.external(a) else a), name, number] for a, name, number in w.refs]


def source_pages(aux, out):
    """source-pages.tex: the page of every label of the companion (its .aux), for the reader's
    edition's 〔源码卷第 N 页〕 (\\nwsrcpage)."""
    lines = []
    for m in re.finditer(r"^\\newlabel\{([^{}]+)\}\{\{(?:[^{}]|\{[^{}]*\})*\}\{([^{}]*)\}",
                         Path(aux).read_text(encoding="utf-8", errors="replace"), re.M):
        lines.append(f"\\nwsrcpagedef{{{m.group(1)}}}{{{m.group(2)}}}\n")
    write_output(out, "".join(lines))


# ---------------------------------------------------------------- EPUB

def epub_job(book, version, epoch, figdir):
    """The reader's edition as one pandoc EPUB 3 job: its chapters, then 参考文献, 术语表 and 术语索引.
    (What it leaves to the source companion is named, not linked: run_epub unwraps those links.)"""
    w = Writer(book, "epub", "reader")
    w.refs = []
    parts = [w.chapter(ch) for ch in book.chapters if ch.reader]
    parts += [md for _, _, md, _ in reader_back_pages(book, w)]
    date = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc)
    meta = {"title": [{"type": "main", "text": BOOK_MAIN_TITLE}, {"type": "subtitle", "text": BOOK_SUBTITLE}],
            "creator": [{"role": "author", "text": BOOK_AUTHOR}],
            "lang": "zh-CN", "date": date.strftime("%Y-%m-%d"), "subject": BOOK_SUBJECT,
            "description": BOOK_SUBJECT + (f"；版本 {version}" if version else ""),
            "rights": "文字与图：CC BY-SA 4.0；代码：MIT",
            "identifier": [{"scheme": "UUID", "text": "urn:uuid:" + str(uuid_of(BOOK_TITLE))}],
            "page-progression-direction": "ltr"}
    args = ["-f", PANDOC_MD, "-t", "epub3", "--mathml", "--toc", "--toc-depth=2",
            "--epub-chapter-level=2", "--highlight-style=tango", "--default-image-extension=svg",
            "--resource-path", str(figdir), "--css", str(TOOLS / "epub.css")]
    md = "---\n" + json.dumps(meta, ensure_ascii=False) + "\n---\n\n" + "\n".join(parts)
    return {"target": "epub", "args": args, "md": md, "epoch": epoch,
            "refs": list(map(list, w.refs)), "citeproc": citeproc_files(book)}


def uuid_of(name):
    import uuid
    return uuid.uuid5(uuid.NAMESPACE_URL, "libattn-book:" + name)


def run_epub(job, out, stamp=None):
    """The EPUB: pandoc writes it, then each XHTML file gets the links that pandoc's highlighting
    cannot carry (the chunk references in the code, found by the placeholders) and loses the
    citations that only numbered the references; the archive is written again, the mimetype first
    and uncompressed as EPUB wants, every entry with the same date, so that it is reproducible."""
    import tempfile
    import zipfile
    out = Path(out)
    digest = job_digest(job)
    if stamp and out.exists() and stamp.exists() and stamp.read_text() == digest:
        out.touch()
        return
    env_epoch = str(job.get("epoch") or 0)
    with tempfile.TemporaryDirectory() as tmp, citeproc_args(job) as extra:
        raw = Path(tmp) / "raw.epub"
        cover = Path(tmp) / "cover.svg"
        cover.write_text(epub_cover(job), encoding="utf-8")
        extra = extra + ["--epub-cover-image", str(cover)]
        old = os.environ.get("SOURCE_DATE_EPOCH")
        os.environ["SOURCE_DATE_EPOCH"] = env_epoch
        try:
            pandoc(job["args"] + extra + ["-o", str(raw)], job["md"])
        finally:
            if old is None:
                del os.environ["SOURCE_DATE_EPOCH"]
            else:
                os.environ["SOURCE_DATE_EPOCH"] = old
        with zipfile.ZipFile(raw) as z:
            entries = [(i.filename, z.read(i.filename)) for i in z.infolist()]
        # pandoc declares MathML for the chapters' files but not for the navigation document,
        # whose headings may hold a formula (为什么要除以 √dₖ); epubcheck wants it declared
        entries = epub_navigation(entries)
        mathml = {Path(n).name for n, d in entries if n.endswith(".xhtml") and b"<math" in d}
        def declare(m):
            props = m.group(2).split()
            if Path(m.group(1)).name in mathml and "mathml" not in props:
                return m.group(0).replace(f'properties="{m.group(2)}"', f'properties="{" ".join(props + ["mathml"])}"')
            return m.group(0)
        entries = [(n, re.sub(r'<item [^>]*href="([^"]+\.xhtml)"[^>]*properties="([^"]*)"', declare,
                              d.decode("utf-8")).encode("utf-8") if n.endswith(".opf") else d)
                   for n, d in entries]
        files = {}
        for name, data in entries:
            if name.endswith(".xhtml"):
                for m in re.finditer(rb'\sid="([^"]+)"', data):
                    files.setdefault(m.group(1).decode(), name)
        stamp_time = datetime.datetime.fromtimestamp(max(int(env_epoch), 315532800), datetime.timezone.utc).timetuple()[:6]
        tmp_out = Path(tmp) / "book.epub"
        with zipfile.ZipFile(tmp_out, "w") as z:
            for name, data in sorted(entries, key=lambda e: (e[0] != "mimetype", 0)):
                if name.endswith(".xhtml"):
                    text = data.decode("utf-8")
                    def where(anchor, name=name):
                        target = files.get(anchor)
                        if target is None:          # in the source companion only
                            return None
                        rel = os.path.relpath(target, os.path.dirname(name))
                        return ("" if target == name else rel) + "#" + anchor
                    text = resolve_refs(text, job, where)
                    # a link to what only the source companion has (a test, a chunk of the back
                    # matter, appendices B-D) keeps its words and class, without the link, and says
                    # where it is (the PDF: 〔源码卷第 N 页〕)
                    def unlink(m, name=name):
                        href = re.search(r'href="([^"#:]*)#([^"]+)"', m.group(1))
                        if not href or href.group(2) in files:
                            return m.group(0)
                        cls = re.search(r'class="([^"]*)"', m.group(1))
                        return (f'<span class="{cls.group(1) if cls else "nwsrc"} nwsrc">{m.group(2)}</span>'
                                '<span class="nwsrcnote">〔源码卷〕</span>')
                    text = re.sub(r'<a(\s[^>]*)>(.*?)</a>', unlink, text, flags=re.S)
                    text = re.sub(r'<div class="nwcites">.*?</div>\n?', "", text, flags=re.S)
                    text = polish_html(text)
                    text = math_alttext(text)
                    data = text.encode("utf-8")
                info = zipfile.ZipInfo(name, date_time=stamp_time)
                info.compress_type = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                z.writestr(info, data)
        data = tmp_out.read_bytes()
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        same = out.read_bytes() == data
    except FileNotFoundError:
        same = False
    if same:
        out.touch()
    else:
        tmp_file = out.with_name(out.name + ".tmp")
        tmp_file.write_bytes(data)
        os.replace(tmp_file, out)
    if stamp:
        stamp.write_text(digest)


def epub_cover(job):
    """The EPUB's cover: the title and subtitle on a plain coloured page, as SVG (the reading
    app's Chinese fonts draw the text)."""
    meta = json.loads(job["md"].split("\n---\n", 1)[0].lstrip("-\n"))
    main = next(t["text"] for t in meta["title"] if t["type"] == "main")
    sub = next(t["text"] for t in meta["title"] if t["type"] == "subtitle")
    version = meta.get("description", "").rpartition("版本 ")[2] if "版本 " in meta.get("description", "") else ""
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1600" viewBox="0 0 1200 1600">\n'
            '<rect width="1200" height="1600" fill="#1a4f8b"/>\n'
            '<rect x="90" y="90" width="1020" height="1420" fill="none" stroke="#e8d9a8" stroke-width="4"/>\n'
            f'<text x="600" y="620" text-anchor="middle" font-size="150" font-weight="bold" fill="#ffffff" '
            f'font-family="Noto Serif CJK SC, Noto Sans CJK SC, serif">{html.escape(main)}</text>\n'
            f'<text x="600" y="780" text-anchor="middle" font-size="72" fill="#e8d9a8" '
            f'font-family="Noto Serif CJK SC, Noto Sans CJK SC, serif">{html.escape(sub)}</text>\n'
            '<text x="600" y="1060" text-anchor="middle" font-size="56" fill="#ffffff" '
            'font-family="DejaVu Sans Mono, monospace">softmax(QKᵀ/√dₖ)V</text>\n'
            f'<text x="600" y="1400" text-anchor="middle" font-size="44" fill="#e8d9a8" '
            f'font-family="Noto Sans CJK SC, sans-serif">{html.escape(BOOK_AUTHOR)}'
            f'{"　" + html.escape(version) if version else ""}</text>\n</svg>\n')


def epub_navigation(entries):
    """Titles in the navigation as plain text: pandoc puts a heading's formula into nav.xhtml as
    MathML and into toc.ncx as its TeX source (为什么要除以 \\sqrt{d_k}); both get the Unicode
    text instead (为什么要除以 √dₖ), and the title page and cover their Chinese names."""
    nav_name = next((n for n, _ in entries if n.endswith("nav.xhtml")), None)
    if nav_name is None:
        return entries
    nav = dict(entries)[nav_name].decode("utf-8")
    nav = re.sub(r"<math\b.*?</math>", lambda m: html.escape(math_plain(m.group(0))), nav, flags=re.S)
    nav = nav.replace(">Title Page<", ">书名页<").replace(">Cover<", ">封面<").replace(">Table of Contents<", ">目录<")
    nav = epub_parts(nav)
    # 小结 (a chapter's summary, unlisted in the PDF's contents) is no entry of its own either
    nav = re.sub(r'<li\b[^>]*>\s*<a [^>]*>小结</a>\s*</li>\s*', "", nav)
    labels = {m.group(1): html.unescape(re.sub(r"<[^>]+>", "", m.group(2)))
              for m in re.finditer(r'<a href="([^"]+)"[^>]*>(.*?)</a>', nav, re.S)}
    out = []
    for name, data in entries:
        if name == nav_name:
            data = nav.encode("utf-8")
        elif name.endswith(".ncx"):
            text = data.decode("utf-8")
            text = re.sub(r'(<text>)([^<]*)(</text>\s*</navLabel>\s*<content src=")([^"]+)"',
                          lambda m: m.group(1) + html.escape(labels.get(
                              os.path.relpath(os.path.join(os.path.dirname(name), m.group(4)),
                                              os.path.dirname(nav_name)).replace(os.sep, "/"),
                              html.unescape(m.group(2))), quote=False) + m.group(3) + m.group(4) + '"',
                          text)
            data = text.encode("utf-8")
        out.append((name, data))
    return out


def epub_parts(nav):
    """The parts (部分) in the navigation's table of contents: the chapters of each part, from the
    one that opens it (PARTS) to the last numbered chapter before the next part or an appendix,
    nested under an entry that names the part (第一部分　注意力本身), as the PDF's contents do."""
    m = re.search(r'(<nav epub:type="toc"[^>]*>.*?<ol class="toc">)(.*)(</ol>\s*</nav>)', nav, re.S)
    if not m:
        return nav
    items, depth, start, i, body = [], 0, None, 0, m.group(2)
    for t in re.finditer(r"<(/?)li\b[^>]*>", body):       # the top-level <li> … </li> items
        if t.group(1) == "":
            if depth == 0:
                start = t.start()
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                items.append((start, t.end()))
    out, pos, part = [], 0, None
    def close():
        if part is not None:
            out.append("</ol></li>")
    for k, (a, b) in enumerate(items):
        out.append(body[pos:a])
        head = re.search(r"<a [^>]*>(.*?)</a>", body[a:b], re.S)
        num = re.search(r"第\s*(\d+)\s*章", re.sub(r"<[^>]+>", "", head.group(1))) if head else None
        label = num.group(1) if num else None
        if label in PARTS:
            close()
            part = label
            out.append(f'<li id="toc-part-{label}"><span>{html.escape(part_label(label))}</span><ol class="toc">')
        elif label is None and part is not None:
            close()
            part = None
        out.append(body[a:b])
        pos = b
    close()
    out.append(body[pos:])
    return nav[:m.start(2)] + "".join(out) + nav[m.end(2):]


def math_alttext(text):
    """Every <math> element gets an alttext: its TeX source, for reading apps and screen readers
    that do not render MathML."""
    def alt(m):
        if "alttext=" in m.group(1):
            return m.group(0)
        tex = re.search(r'<annotation encoding="application/x-tex">(.*?)</annotation>', m.group(0), re.S)
        if not tex:
            return m.group(0)
        words = html.escape(re.sub(r"\s+", " ", html.unescape(tex.group(1))).strip(), quote=True)
        return m.group(0).replace(m.group(1), f'{m.group(1)} alttext="{words}"', 1)
    return re.sub(r"(<math\b[^>]*?)(?=>).*?</math>", alt, text, flags=re.S)


def resolve_refs(text, job, where=None):
    """Replace the placeholders that pandoc highlighted with links to chunks (WHERE, for the EPUB:
    a function from "#anchor" to the link from this file)."""
    def rep(m):
        href, name, number = job["refs"][int(m.group(1))]
        if where:
            href = where(href)
            if href is None:                # the EPUB: a chunk of the source companion, named only
                return f'<span class="nwref nwsrc">〈{html.escape(name)}&#160;{number}〉</span>' if number else html.escape(name)
        if not number:                  # the path of an #include, linked to its root chunk
            if job["target"] != "latex":
                return f'<a class="nwinc" href="{html.escape(href)}">{html.escape(name)}</a>'
            if ".pdf#" in href:
                return f"\\nwsrcinc{{{href.partition('#')[2]}}}{{{tex_escape(name)}}}"
            return f"\\hyperlink{{{href}}}{{{tex_escape(name)}}}"
        if job["target"] != "latex":
            space = "&#160;" if where else "&nbsp;"      # XHTML (the EPUB) knows no &nbsp;
            return (f'<a class="nwref" href="{html.escape(href)}">'
                    f'〈{html.escape(name)}{space}{number}〉</a>')
        if ".pdf#" in href:             # a chunk that only the companion prints
            return f"\\nwsrcref{{{href.partition('#')[2]}}}{{{tex_escape(name)}}}{{{number}}}"
        return f"\\nwref{{{href}}}{{{tex_escape(name)}}}{{{number}}}"
    return PLACEHOLDER.sub(rep, text)


SUPERSCRIPTS = str.maketrans("0123456789+-=()nTi", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿᵀⁱ")
SUBSCRIPTS = str.maketrans("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
MATH_WORDS = {"infty": "∞", "times": "×", "cdot": "·", "cdots": "⋯", "ldots": "…", "dots": "…",
              "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "approx": "≈",
              "to": "→", "rightarrow": "→", "in": "∈", "sum": "∑", "top": "ᵀ", "alpha": "α",
              "beta": "β", "sigma": "σ", "mu": "μ", "epsilon": "ε", "lambda": "λ", "theta": "θ",
              "pi": "π", "equiv": "≡", "odot": "⊙", "leftarrow": "←", "mid": "|", "prime": "′",
              "ln": "ln", "sin": "sin", "cos": "cos", "tanh": "tanh", "log": "log", "exp": "exp", "max": "max", "min": "min"}


def brace_group(s, i):
    """s[i] is "{": return (the group's content, the index after its "}")."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "{" and (j == 0 or s[j - 1] != "\\"):
            depth += 1
        elif s[j] == "}" and s[j - 1] != "\\":
            depth -= 1
            if depth == 0:
                return s[i + 1:j], j + 1
    return s[i + 1:], len(s)


def math_to_text(m):
    """A little TeX math as plain Unicode text, for PDF bookmarks: √d_k, −∞, 4E²+4E."""
    out, i = [], 0
    while i < len(m):
        ch = m[i]
        if ch == "\\":
            j = i + 1
            while j < len(m) and m[j].isalpha():
                j += 1
            word = m[i + 1:j] or m[j:j + 1]
            i = j if j > i + 1 else j + 1
            if word in ("sqrt",):
                arg, i = brace_group(m, i) if i < len(m) and m[i] == "{" else (m[i:i + 1], i + 1)
                out.append("√" + math_to_text(arg))
            elif word == "mathbb":
                arg, i = brace_group(m, i) if i < len(m) and m[i] == "{" else (m[i:i + 1], i + 1)
                out.append({"R": "ℝ", "N": "ℕ", "Z": "ℤ", "E": "𝔼"}.get(arg, arg))
            elif word in ("text", "mathrm", "mathit", "mathbf", "mathsf", "mathrel", "mathbin",
                          "mathop", "operatorname", "textrm", "boldsymbol"):
                while i < len(m) and m[i] == " ":
                    i += 1
                arg, i = brace_group(m, i) if i < len(m) and m[i] == "{" else (m[i:i + 1], i + 1)
                out.append(math_to_text(arg) if word not in ("text", "textrm") else arg)
            elif word in (",", ";", " ", "!", ":"):
                out.append(" " if word != "!" else "")
            elif word in ("{", "}", "_", "%", "#", "&", "$"):
                out.append(word)
            else:
                out.append(MATH_WORDS.get(word, word))
                if word in ("sin", "cos", "tan", "tanh", "log", "ln", "exp", "max", "min") and \
                        m[i:i + 1] == " " and m[i + 1:i + 2].isalnum():
                    out.append(" ")        # \sin x -> "sin x", not "sinx"
        elif ch in "^_":
            i += 1
            if i < len(m) and m[i] == "{":
                arg, i = brace_group(m, i)
            elif i < len(m) and m[i] == "\\":      # a command: \top, \text{model}
                j = i + 1
                while j < len(m) and m[j].isalpha():
                    j += 1
                if j < len(m) and m[j] == "{":
                    _, j = brace_group(m, j)
                arg, i = m[i:j], j
            else:
                arg, i = m[i:i + 1], i + 1
            arg = math_to_text(arg)
            small = arg.translate(SUPERSCRIPTS if ch == "^" else SUBSCRIPTS)
            if all(a != b for a, b in zip(arg, small)) or arg == "ᵀ":
                out.append(small)
            else:
                out.append(ch + (arg if arg.isalnum() else f"({arg})"))
        elif ch == " ":
            i += 1
        elif ch in "{}":
            i += 1
        elif ch == "-":
            out.append("−")
            i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def latex_to_text(t):
    """A heading as pandoc wrote it in LaTeX, as plain text for a PDF bookmark."""
    out, i = [], 0
    while i < len(t):
        if t.startswith("\\(", i):
            j = t.find("\\)", i)
            j = len(t) if j < 0 else j
            out.append(math_to_text(t[i + 2:j]))
            i = j + 2
        elif t[i] == "\\":
            j = i + 1
            while j < len(t) and t[j].isalpha():
                j += 1
            word = t[i + 1:j]
            if not word:                       # \_ \& \{ ...
                out.append(t[j:j + 1])
                i = j + 1
            elif word == "textbackslash":
                out.append("\\")
                i = j + (2 if t.startswith("{}", j) else 0)
            elif j < len(t) and t[j] == "{":   # \texttt{...}, \emph{...}: keep the words
                arg, i = brace_group(t, j)
                out.append(latex_to_text(arg))
            else:
                i = j
        elif t[i] in "{}":
            i += 1
        elif t[i] == "\n":
            out.append(" ")
            i += 1
        else:
            out.append(t[i])
            i += 1
    return re.sub(r"\s+", " ", "".join(out)).strip()


HIGHLIGHT_TOKEN = re.compile(r"\\newcommand\{\\(\w+Tok)\}\[1\]\{\\textcolor\[rgb\]\{([0-9.]+),([0-9.]+),([0-9.]+)\}"
                             r"\{(.*)\}\}$", re.M)
HIGHLIGHT_FONTS = {"\\textbf{\\textit{#1}}": "{\\nwttbi #1}", "\\textbf{#1}": "{\\nwttbf #1}",
                   "\\textit{#1}": "{\\nwttit #1}", "#1": "#1"}


def quick_highlighting(tex):
    """The same colours and fonts as pandoc's highlighting macros, a quarter of XeLaTeX's time
    cheaper. Pandoc colours each of the book's ~87 000 coloured code tokens with
    \\textcolor[rgb]{...}, which xcolor parses every time, and sets the ~64 000 operators and
    keywords with \\textbf, a full font selection each time; this made up a quarter of a XeLaTeX run. Here a token's colour is the
    driver's colour special (what xcolor writes in the end) and its font is the code font's bold or
    italic, looked up once per chunk by \\nwcodefonts (tools/preamble.tex). Black is no colour."""
    def rep(m):
        name, rgb, body = m.group(1), m.group(2, 3, 4), m.group(5)
        if body not in HIGHLIGHT_FONTS:
            return m.group(0)
        body = HIGHLIGHT_FONTS[body]
        if all(float(c) == 0 for c in rgb):
            return f"\\newcommand{{\\{name}}}[1]{{{body}}}"
        return f"\\newcommand{{\\{name}}}[1]{{\\nwtok{{{' '.join(rgb)}}}{{{body}}}}}"
    return HIGHLIGHT_TOKEN.sub(rep, tex)


def fix_pdfstrings(tex):
    """Pandoc's \\texorpdfstring{TeX}{text} puts the formula's TeX source into the bookmark
    ("\\textbackslash sqrt\\{d\\_k\\}"); write the formula as Unicode text instead (√d_k)."""
    out, i, key = [], 0, "\\texorpdfstring{"
    while True:
        j = tex.find(key, i)
        if j < 0:
            out.append(tex[i:])
            return "".join(out)
        first, k = brace_group(tex, j + len(key) - 1)
        _, end = brace_group(tex, k)
        out.append(tex[i:j] + "\\texorpdfstring{" + first + "}{" +
                   tex_escape(latex_to_text(first)) + "}")
        i = end


INLINE_MATH = r'<math display="inline"[^>]*>(?:(?!</math>).)*</math>'


def polish_html(text):
    """What pandoc's HTML needs before a reader sees it:
    - an image's alt text is its caption as plain text (pandoc writes a formula's TeX source
      there: "\\sin x"); the caption's formulas become Unicode (sin x, √dₖ);
    - an inline formula and the punctuation after it stay on one line, so that no line starts
      with "。", "，" or "、"."""
    def alt(m):
        cap = re.search(r"<figcaption[^>]*>(.*?)</figcaption>", m.group(0), re.S)
        if not cap:
            return m.group(0)
        words = html.escape(plain(cap.group(1)), quote=True)
        return re.sub(r'(<img\b[^>]*?\balt=")[^"]*(")', lambda a: a.group(1) + words + a.group(2),
                      m.group(0), count=1)
    text = re.sub(r"<figure>.*?</figure>", alt, text, flags=re.S)
    # texmath marks every pair of parentheses stretchy, as if written \left( \right): plain
    # "(0, 0)" came out with tall, padded parentheses. Only formulas that say \left stretch.
    def fences(m):
        tex = re.search(r'<annotation encoding="application/x-tex">(.*?)</annotation>', m.group(0), re.S)
        if tex and re.search(r"\\(left|begin|[bB]ig)", tex.group(1)):
            return m.group(0)
        out = m.group(0).replace('<mo stretchy="true"', '<mo stretchy="false"')
        # a minus or plus right after "(", "," or "=" is a sign: no space as around a binary minus
        return re.sub(r'((?:form="prefix">[(\[]</mo>|<mo>,</mo>|<mo>=</mo>|<mrow>))<mo>([−+])</mo>',
                      r'\1<mo form="prefix">\2</mo>', out)
    text = re.sub(r"<math\b.*?</math>", fences, text, flags=re.S)
    # \mathrm{softmax}: texmath writes <mstyle mathvariant="normal">, which Chromium ignores
    # (MathML Core has mathvariant on <mi> only), so the word came out in italics
    def upright(m):
        return re.sub(r"<mi>", '<mi mathvariant="normal">', m.group(0))
    text = re.sub(r'<mstyle mathvariant="normal">(?:(?!</mstyle>).)*</mstyle>', upright, text, flags=re.S)
    # a long inline formula (it cannot break) gets a box that scrolls sideways on a phone
    def wide(m):
        shown = re.sub(r"<annotation\b.*?</annotation>|<[^>]+>", "", m.group(0), flags=re.S)
        return f'<span class="widemath">{m.group(0)}</span>' if len(html.unescape(shown)) > 26 else m.group(0)
    text = re.sub(INLINE_MATH, wide, text, flags=re.S)
    text = re.sub(f"((?:<span class=\"widemath\">)?{INLINE_MATH}(?:</span>)?)([。，、；：？！）」』”]+)",
                  r'<span class="nobr">\1\2</span>', text, flags=re.S)
    # a display formula wider than a phone scrolls sideways in a box of its own (a <math> element
    # cannot be that box: Chromium does not clip block math)
    text = re.sub(r'<math display="block"(?:(?!</math>).)*</math>', r'<span class="mathblock">\g<0></span>',
                  text, flags=re.S)
    return text


CSL_STYLE = Path("/usr/share/citation-style-language/styles/china-national-standard-gb-t-7714-2015-numeric.csl")


def citeproc_files(book):
    """The bibliography and the citation style a job formats references with."""
    if not CSL_STYLE.exists():
        die(f"{CSL_STYLE} not found (Debian package citation-style-language-styles)")
    return {"bibliography": str(book.bibliography), "csl": str(CSL_STYLE)}


class citeproc_args:
    """with citeproc_args(job) as extra: the pandoc options that format the job's references.
    The style is Debian's GB/T 7714-2015 numeric CSL with one repair: pandoc 2.17's citeproc takes
    the style's names-delimiter (". ", between the author and editor lists) as the delimiter between
    the names of one list ("VASWANI A. SHAZEER N."); the standard and the style mean "VASWANI A,
    SHAZEER N". A copy that says so on each <name> is written for the run."""
    def __init__(self, job):
        self.files = job.get("citeproc")
        self.tmp = None

    def __enter__(self):
        if not self.files:
            return []
        import tempfile
        csl = Path(self.files["csl"]).read_text(encoding="utf-8")
        csl = re.sub(r"<name>", '<name delimiter=", ">', csl)
        fd, self.tmp = tempfile.mkstemp(suffix=".csl")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(csl)
        return ["--citeproc", "--bibliography", self.files["bibliography"], "--csl", self.tmp]

    def __exit__(self, *exc):
        if self.tmp:
            os.unlink(self.tmp)
        return False


def job_digest(job):
    """What a job's output depends on: the job, this script, and the files pandoc reads."""
    h = hashlib.sha256(json.dumps(job, sort_keys=True).encode())
    h.update(Path(__file__).read_bytes())
    for f in (job.get("citeproc") or {}).values():
        h.update(Path(f).read_bytes())
    args = job.get("args", [])
    for i, a in enumerate(args[:-1]):
        if a in ("--template", "-H", "--css"):
            h.update(Path(args[i + 1]).read_bytes())
        if a == "--resource-path":          # the EPUB's figures
            for f in sorted(Path(args[i + 1]).glob("figures/*.svg")):
                h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def run_job(job, out, stamp=None):
    """Run one job through pandoc, unless STAMP says that OUT was made from this very job (the
    build calls this whenever the job file's time changes, even when its content did not)."""
    out = Path(out)
    digest = job_digest(job)
    if stamp and out.exists() and stamp.exists() and stamp.read_text() == digest:
        out.touch()
        return
    args = job["args"]
    with citeproc_args(job) as extra:
        text = resolve_refs(pandoc(args + extra, job["md"]), job)
    if job.get("citeproc"):
        text = re.sub(r'<div class="nwcites">.*?</div>\n?', "", text, flags=re.S)
        text = re.sub(r"%NWCITES\n.*?%NWCITES\n", "", text, flags=re.S)
    if job["target"] == "latex":
        text = fix_pdfstrings(text)
    else:
        text = polish_html(text)
    if job.get("drop_sample"):
        text = re.sub(r"\\iffalse\n.*?\n\\fi\n\n?", "", text, count=1, flags=re.S)
        text = quick_highlighting(text)     # the master's preamble defines the token macros
    write_output(out, text)
    if stamp:
        stamp.write_text(digest)


def write_if_changed(path, text):
    """Write a file only when its content changes, so that make rebuilds only what changed."""
    path = Path(path)
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return True


def write_output(path, text):
    """Write a build rule's output when its content changes; otherwise only mark it as new, so that
    make finds the rule done (make cannot be told that an output it did not rewrite is up to date,
    and would run the rule at every build). What reads the output then runs once more and finds
    nothing to do: latexmk compares checksums, the pandoc steps their job digests."""
    if not write_if_changed(path, text):
        Path(path).touch()


def load_book(sources):
    book = Book(read_markup(run_front_end(sources)))
    book.bibliography = (Path(sources[0]).parent / "references.bib").resolve()
    keys = set()
    if book.bibliography.exists():
        keys = set(re.findall(r"^\s*@\w+\s*\{\s*([^,\s]+)\s*,", book.bibliography.read_text(encoding="utf-8"), re.M))
    elif book.cite_keys:
        die(f"{book.bibliography} not found, but the book cites [@{book.cite_keys[0]}]")
    for key in book.cite_keys:
        if key not in keys:
            ch = book.cite_where[key]
            die(f"{ch.path}: [@{key}] cites nothing in {book.bibliography.name}: it has no entry with the key {key}")
    terms.annotate(book, terms_helpers())
    return book


def terms_helpers():
    """What tools/terms.py borrows from this file."""
    return {"doc_text": doc_text, "code_fence": code_fence, "HEADING": HEADING, "title_text": title_text,
            "chapter_label": chapter_label, "strip_code_spans": strip_code_spans, "sort_key": sort_key,
            "md_escape": md_escape, "die": die}


def prepare(jobdir, sources, version, epoch):
    book = load_book(sources)
    jobs = {**html_jobs(book), **latex_jobs(book, version, epoch),
            "attn-book.epub": epub_job(book, version, epoch, jobdir.resolve().parent)}
    jobdir.mkdir(parents=True, exist_ok=True)
    for name, job in jobs.items():
        write_if_changed(jobdir / (name + ".json"),
                         json.dumps(job, ensure_ascii=False, indent=0, sort_keys=True) + "\n")
    return jobs


def job_output(name, job, html_dir, latex_file):
    """Where the whole-book mode writes job NAME (the build's CMake rules say the same)."""
    source = name.startswith("source-")
    stem = name[len("source-"):] if source else name
    if job["target"] == "html" and html_dir:
        return (html_dir / SOURCE_DIR if source else html_dir) / (stem[:-len(".html")] + ".html")
    if job["target"] == "latex" and latex_file:
        if name.endswith(".master"):
            return latex_file.parent / (name[:-len(".master")] + ".tex")
        return latex_file.parent / ("chapters-source" if source else "chapters") / (stem[:-len(".latex")] + ".tex")
    return None


def run_all(jobs, html_dir, latex_file):
    """Every job, two pandoc processes at a time (the whole-book mode)."""
    todo = [(job, job_output(name, job, html_dir, latex_file)) for name, job in jobs.items()]
    todo = [(job, out) for job, out in todo if out is not None]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for f in [pool.submit(run_job, job, out) for job, out in todo]:
            f.result()
    if html_dir:
        write_contents(jobs["contents.html"], html_dir)
        write_contents(jobs["source-contents.html"], html_dir)


def main():
    if len(sys.argv) > 1 and sys.argv[1] in ("prepare", "run", "contents", "srcpages", "widecode"):
        return steps(sys.argv[1], sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--html", type=Path)
    ap.add_argument("--latex", type=Path)
    ap.add_argument("--markdown", type=Path)
    ap.add_argument("--version", default="")
    ap.add_argument("--epoch", type=int, default=0)
    ap.add_argument("sources", nargs="+")
    a = ap.parse_args()
    book = load_book(a.sources)
    if a.markdown:
        a.markdown.mkdir(parents=True, exist_ok=True)
        for target in ("html", "latex"):
            w = Writer(book, target)
            for ch in book.chapters:
                (a.markdown / f"{Path(ch.path).stem}.{target}.md").write_text(w.chapter(ch), encoding="utf-8")
    jobs = {}
    if a.html:
        jobs.update(html_jobs(book))
    if a.latex:
        jobs.update(latex_jobs(book, a.version, a.epoch))
    run_all(jobs, a.html, a.latex)
    return 0


def steps(step, argv):
    ap = argparse.ArgumentParser(prog=f"weave.py {step}")
    if step == "prepare":
        ap.add_argument("jobdir", type=Path)
        ap.add_argument("--version", default="")
        ap.add_argument("--epoch", type=int, default=0, help="the date on the title page (Unix time)")
        ap.add_argument("sources", nargs="+")
        a = ap.parse_args(argv)
        prepare(a.jobdir, a.sources, a.version, a.epoch)
    elif step == "run":
        ap.add_argument("job", type=Path)
        ap.add_argument("out", type=Path)
        a = ap.parse_args(argv)
        job = json.loads(a.job.read_text(encoding="utf-8"))
        (run_epub if job["target"] == "epub" else run_job)(job, a.out, a.job.with_name(a.job.name + ".digest"))
    elif step == "widecode":
        ap.add_argument("--columns", type=int, default=CODE_COLUMNS,
                        help=f"the widest line the page holds (default {CODE_COLUMNS}; a Chinese character counts 2)")
        ap.add_argument("sources", nargs="+")
        a = ap.parse_args(argv)
        return report_wide_code(a.sources, a.columns)
    elif step == "srcpages":
        ap.add_argument("aux", type=Path, help="the companion's .aux (attn-book-source.aux)")
        ap.add_argument("out", type=Path, help="source-pages.tex, which the reader's edition reads")
        a = ap.parse_args(argv)
        source_pages(a.aux, a.out)
    else:
        ap.add_argument("job", type=Path)
        ap.add_argument("htmldir", type=Path)
        a = ap.parse_args(argv)
        write_contents(json.loads(a.job.read_text(encoding="utf-8")), a.htmldir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
