"""tools/terms.py — the reader's finding aids that tools/weave.py makes from the book:

  * the index of misconceptions (appendix A): every ::: {.misconception} box of the book, by
    chapter and section, with the claim it corrects and a link to it (the PDF gives its page);
  * the glossary 术语表 and the subject index 术语索引, from book/terms.tsv: each term's English,
    a one-line definition and the section that defines it; then, for each term, the sections of
    the chapters' reading paths where it (or one of its other spellings) occurs.

weave.py owns the Markdown writer; the functions here take it (and a few of its helpers, in H)
and return Markdown for the target it writes (html, latex or epub)."""

import re
from pathlib import Path

GLOSSARY_PAGE = "glossary.html"
SUBJECT_PAGE = "subject-index.html"
MISCONCEPTION_MARKER = re.compile(r"^:{3,}\s*\{#sec-errata-index\s+\.errata-index\}\s*\n:{3,}\s*$", re.M)
BOX_OPENER = re.compile(r"^:{3,}\s*(.*?)\s*$")
MAX_LOCATORS = 12        # a term that occurs everywhere (注意力) lists its first sections only


class Term:
    def __init__(self, n, name, english, definition, anchor, aliases, only_aliases):
        self.n, self.name, self.english, self.definition = n, name, english, definition
        self.anchor, self.aliases, self.only_aliases = anchor, aliases, only_aliases
        self.id = f"term-{n:03d}"
        self.places = []     # [(anchor, number, title)] of the sections it occurs in, book order

    def spellings(self):
        return self.aliases if self.only_aliases else [self.name] + self.aliases


def is_misconception(opener):
    return bool(re.match(r"^\{[^}]*\.misconception\b[^}]*\}$", opener) or opener == "misconception")


def box_id(opener, ch, k):
    """The id of the k-th misconception box of chapter CH: its own {#id}, or mc-LABEL-K."""
    m = re.search(r"#([\w:.-]+)", opener)
    return m.group(1) if m else f"mc-{ch.label}-{k}"


def with_id(line, ident):
    """A box's opening line with the id written in (::: {#mc-3-2 .misconception})."""
    m = BOX_OPENER.match(line)
    colons = line[:len(line) - len(line.lstrip(":"))]
    opener = m.group(1)
    if "#" in opener:
        return line
    if opener.startswith("{"):
        return f"{colons} {{#{ident} {opener[1:]}"
    return f"{colons} {{#{ident} .{opener}}}"


def walk(book, H, reading_only=True):
    """Each line of prose of the chapters (the preface and appendices too), with where it is:
    yields (chapter, line, place, state). PLACE is (anchor, number, title) of the nearest heading
    that has an id (the chapter for text before its first section); STATE is a set of flags:
    "back" (back matter), "frame" (inside a ::: {.goals} box or under 小结/练习), "fence" (in a
    ``` block). Each documentation chunk starts outside any code block and box, as the writer's."""
    for ch in book.chapters:
        sec = [0, 0]
        chapter_id = None
        place = None
        back = frame_heading = False
        for c in ch.chunks:
            if c.kind != "docs":
                continue
            fence, boxes = None, []
            for line in H["doc_text"](c).split("\n"):
                fence = H["code_fence"](line, fence)
                state = set()
                if fence is not None or line.startswith("    "):
                    state.add("fence")
                else:
                    h = H["HEADING"].match(line)
                    if h:
                        level, attrs = len(h.group(1)), h.group(3) or ""
                        ident = re.search(r"#([\w:.-]+)", attrs)
                        if level == 1:
                            chapter_id = ident.group(1) if ident else None
                            place = (chapter_id, None, H["chapter_label"](ch) or H["title_text"](h.group(2)))
                        elif level in (2, 3):
                            if level == 2 and ".backmatter" in attrs:
                                back = True
                            numbered = not (ch.frontmatter or re.search(r"(^|\s)(\.unnumbered|-)(\s|\}|$)",
                                                                       attrs.strip("{} ")))
                            if numbered:
                                sec = [sec[0] + 1, 0] if level == 2 else [sec[0], sec[1] + 1]
                            number = (f"{ch.label}.{sec[0]}" + (f".{sec[1]}" if level == 3 else "")) if numbered else None
                            if level == 2:
                                title = h.group(2).strip()
                                frame_heading = title.startswith("小结") or title.startswith("练习")
                            if ident:
                                place = (ident.group(1), number, H["title_text"](h.group(2)))
                            elif level == 2:
                                place = (chapter_id, None, H["chapter_label"](ch) or H["title_text"](h.group(2)))
                    m = BOX_OPENER.match(line) if line.startswith(":::") else None
                    if m and m.group(1):
                        boxes.append(bool(re.search(r"\.goals\b", m.group(1))))
                    elif m and boxes:
                        boxes.pop()
                if back:
                    state.add("back")
                if any(boxes) or frame_heading:
                    state.add("frame")
                if reading_only and "back" in state:
                    continue
                yield ch, line, place, state


def annotate(book, H):
    """Read book/terms.tsv, find where each term occurs, number the misconception boxes; give
    every anchor the writer may link to its page (book.anchor_page)."""
    book.anchor_page["glossary"] = GLOSSARY_PAGE
    book.anchor_page["subject-index"] = SUBJECT_PAGE
    # the misconception boxes, numbered per chapter in the order the writer meets them
    book.misconceptions = []     # [(chapter, id, place, claim)]
    counts = {}
    pending = None
    for ch, line, place, state in walk(book, H, reading_only=False):
        if "fence" in state:
            continue
        m = BOX_OPENER.match(line) if line.startswith(":::") else None
        if m and m.group(1) and is_misconception(m.group(1)):
            k = counts[ch.path] = counts.get(ch.path, 0) + 1
            ident = box_id(m.group(1), ch, k)
            book.anchor_page[ident] = ch.page
            pending = [ch, ident, place, []]
            book.misconceptions.append(pending)
            continue
        if pending is not None:
            if m and not m.group(1):
                pending = None
            elif line.strip():
                pending[3].append(line.strip())
    for entry in book.misconceptions:
        entry[3] = first_sentence(" ".join(entry[3]))
    # the terms
    path = Path(book.chapters[0].path).parent / "terms.tsv"
    book.terms = []
    if not path.exists():
        return
    for lineno, row in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if not row.strip() or row.startswith("#"):
            continue
        cols = row.split("\t")
        if len(cols) != 5:
            H["die"](f"{path}:{lineno}: a term has five columns separated by tabs (术语, English, 定义, 节, 别名)")
        name, english, definition, anchor, aliases = (c.strip() for c in cols)
        if anchor not in book.anchor_page:
            H["die"](f"{path}:{lineno}: {name}: no heading has the id {anchor}")
        only = aliases.startswith("!")
        alias_list = [a for a in aliases.lstrip("!").split("|") if a]
        book.terms.append(Term(len(book.terms) + 1, name, english, definition, anchor, alias_list, only))
    for t in book.terms:
        book.anchor_page[t.id] = GLOSSARY_PAGE
    patterns = [(t, spelling_pattern(t)) for t in book.terms]
    seen = {t.id: set() for t in book.terms}
    defined = {t.id: False for t in book.terms}
    for ch, line, place, state in walk(book, H):
        if ch.frontmatter or ch.appendix or state or place is None or place[0] is None:
            continue
        text = H["strip_code_spans"](line)
        text = re.sub(r"\]\([^)]*\)|\{[#.][^}]*\}|@<<.*?>>", " ", text)   # link targets, attributes, chunk names
        for t, pat in patterns:
            if pat.search(text):
                if place[0] == t.anchor:
                    defined[t.id] = True
                if place[0] not in seen[t.id]:
                    seen[t.id].add(place[0])
                    t.places.append(place)
    missing = [f"{t.name}: the section {t.anchor} that defines it does not say {' or '.join(t.spellings())}"
               for t in book.terms if not defined[t.id]]
    if missing:
        H["die"](f"{path}: " + "; ".join(missing) + " (outside 本章目标, 小结 and 练习)")


def spelling_pattern(t):
    parts = []
    for s in t.spellings():
        p = re.escape(s)
        if re.match(r"[A-Za-z]", s):
            p = r"(?<![A-Za-z])" + p
        if re.search(r"[A-Za-z]$", s):
            p = p + r"(?![A-Za-z])"
        parts.append(p)
    return re.compile("|".join(parts), re.I if all(s.isascii() for s in t.spellings()) else 0)


def first_sentence(text):
    """The claim a box corrects: its text up to the first full stop (。 or ？) outside $…$, or the
    quotation it opens with (“…”, without the marks)."""
    if text.startswith("“") and "”" in text:
        return text[1:text.index("”")]
    depth = False
    for i, c in enumerate(text):
        if c == "$":
            depth = not depth
        elif not depth and c in "。？":
            return text[:i + 1]
    return text


def locator(w, place, latex, bold):
    anchor, number, title = place
    if latex:
        return f"`\\nwpg{'b' if bold else ''}{{{anchor}}}`{{=latex}}"
    label = f"§{number}" if number else title
    return f"**[{label}]({w.href(anchor)})**" if bold else f"[{label}]({w.href(anchor)})"


def misconception_index(w, H):
    """The list for appendix A: chapter by chapter, each box's section and the claim it corrects."""
    book = w.book
    latex = w.target == "latex"
    out = []
    current = None
    for ch, ident, place, claim in book.misconceptions:
        if ch.appendix:
            continue
        if ch is not current:
            current = ch
            label = H["chapter_label"](ch)
            out.append(f"\n**{label + '　' if label else ''}{ch.title}**\n\n")
        where = ""
        if place and place[1]:
            where = f"§{place[1]} "
        page = f"，第 `\\pageref*{{{ident}}}`{{=latex}} 页" if latex else ""
        out.append(f"- {claim}（[{where}{H['md_escape'](place[2] if place else '')}]({w.href(ident)}){page}）\n")
    return "".join(out) + "\n"


def expand(w, ch, text, H):
    """The marker of appendix A's index in a chapter's prose, replaced by the index."""
    if not MISCONCEPTION_MARKER.search(text):
        return text
    return MISCONCEPTION_MARKER.sub(lambda m: misconception_index(w, H), text)


def glossary(w, H):
    """# 术语表: every term of book/terms.tsv, in pinyin order, with its English, its definition
    and a link to the section that defines it."""
    book = w.book
    latex = w.target == "latex"
    out = ["# 术语表 {#glossary .unnumbered}\n\n"]
    if latex:
        out.append("```{=latex}\n\\markboth{术语表}{术语表}\n```\n\n")
    out.append("正文里的术语，按拼音排列。每条给出英文、一句话的定义和定义它的那一节；"
               f"它在正文里出现的各节见[术语索引]({w.href('subject-index')})。\n\n")
    places = {}
    for ch, line, place, state in walk(book, H):
        if place and place[0] and place[0] not in places:
            places[place[0]] = place
    for t in sorted(book.terms, key=lambda t: H["sort_key"](t.name)):
        place = places.get(t.anchor, (t.anchor, None, ""))
        where = f"§{place[1]}" if place[1] else H["md_escape"](place[2])
        if latex:
            where += f"，第 `\\pageref*{{{t.anchor}}}`{{=latex}} 页"
        english = f"（{H['md_escape'](t.english)}）" if t.english != t.name else ""
        out.append(f"[**{H['md_escape'](t.name)}**]{{#{t.id}}}{english}　{t.definition}"
                   f"　见 [{where}]({w.href(t.anchor)})。\n\n")
    return "".join(out)


LATEX_PAGES = r"""```{=latex}
\makeatletter
\def\nwpgstart{\let\nw@lastpg\@empty}
\def\nwpg{\nw@pg@{}}
\def\nwpgb{\nw@pg@{\bfseries}}
\def\nw@pg@#1#2{\edef\nw@pg{\getpagerefnumber{#2}}\ifx\nw@pg\nw@lastpg\else
  \ifx\nw@lastpg\@empty\else, \fi\hyperref[#2]{{#1\nw@pg}}\fi\let\nw@lastpg\nw@pg}
\makeatother
```

"""


def subject_index(w, H):
    """# 术语索引: for each term, the sections of the chapters' reading paths where it occurs
    (HTML and EPUB: §3.2, linked; PDF: the pages those sections begin on)."""
    book = w.book
    latex = w.target == "latex"
    out = ["# 术语索引 {#subject-index .unnumbered}\n\n"]
    if latex:
        out.append("```{=latex}\n\\markboth{术语索引}{术语索引}\n```\n\n" + LATEX_PAGES)
    out.append("每个术语在各章正文里出现的节（PDF 里是这些节开始的页码），按书中的先后；"
               "定义它的那一节用粗体。出现在十几节以上的术语只列前面的几节。"
               f"术语的定义见[术语表]({w.href('glossary')})。\n\n")
    entries = []
    for t in sorted(book.terms, key=lambda t: H["sort_key"](t.name)):
        places = t.places
        more = len(places) > MAX_LOCATORS
        if more:    # the first sections, and the one that defines the term
            places = [p for i, p in enumerate(places) if i < MAX_LOCATORS - 1 or p[0] == t.anchor][:MAX_LOCATORS]
        locs = ("" if latex else "、").join(locator(w, p, latex, p[0] == t.anchor) for p in places)
        if latex:
            locs = "`\\nwpgstart{}`{=latex}" + locs
        entries.append(f"[{H['md_escape'](t.name)}]({w.href(t.id)})：{locs}{'……' if more else ''}")
    out.append(w.index_list(entries))
    return "".join(out)
