#!/usr/bin/env python3
"""tests/reading_path.py [SOURCE_DIR] — the reading path of every chapter is for the reader.

A numbered chapter (book/NN-*.nw, N >= 1) and the preface (book/00-*.nw) have a reading path: all
of the file before its first level-2 heading with the class .backmatter ("## 本章的测试
{.backmatter}"). What follows is the back matter. For each of them this checks (WRITING.md, 正文与后记):

  1. no chunk whose name begins with 测试 is defined in the reading path;
  2. no chunk defined in the reading path ends up only in tests/, figures/, bench/ or exercises/
     files or in CMake files (the roots it reaches, through the chunks that use it);
  3. every level-2 heading after the first .backmatter one carries .backmatter too;
  4. every chapter from 1 on has its frame: a ::: {.goals} box (本章目标, 2-4 points) before its
     first section and a ## 小结 (1-8 points) right before its ## 练习;
  5. reading-path prose >= ratio x reading-path code, in non-blank characters: prose is the
     documentation outside chunks, code the chunks defined there. The ratio is 1.0 for the preface
     and chapters 1-8, 0.8 for chapters 9 and later, and 0.9 over all numbered chapters together
     (the preface not included).

Appendices are not measured: they are reference material, all of it one click from the text.
The file is read with noweb's own front end (markup), so that chunks, uses and documentation are
what noweb sees; line numbers come from the chunk definitions in the file, in the same order.
It prints a table per chapter (prose, code by kind, ratio, the target) and then every problem with
its file and line, and exits 1 if there is any.
"""
import re
import subprocess
import sys
from pathlib import Path

FORBIDDEN_ROOTS = ("tests/", "figures/", "bench/", "exercises/")
RATIO_EARLY, RATIO_LATE, RATIO_BOOK = 1.0, 0.8, 0.9
BACKMATTER = re.compile(r"^##\s+.*\{[^{}]*\.backmatter\b[^{}]*\}\s*$")
LEVEL2 = re.compile(r"^##\s")


def nonblank(s):
    return len(re.sub(r"\s", "", s))


def noweb_lib():
    try:
        notangle = subprocess.run(["sh", "-c", "command -v notangle"], capture_output=True, text=True).stdout.strip()
        lib = re.search(r"^LIB=(.*)$", Path(notangle).read_text(), re.M).group(1)
    except (OSError, AttributeError):
        lib = "/usr/lib/noweb"
    if not (Path(lib) / "markup").exists():
        sys.exit("reading-path: noweb's markup not found (Debian package noweb)")
    return Path(lib)


class Chunk:
    def __init__(self, kind):
        self.kind = kind            # "docs" or "code"
        self.name = None
        self.text = []              # the chunk's text as written (uses as <<name>>)
        self.uses = []
        self.back = False           # defined in the back matter
        self.line = 0


def read(src):
    """book/*.nw through noweb's markup: {file: [Chunk]} in the order of the files."""
    files = sorted((src / "book").glob("*.nw"))
    out = subprocess.run([str(noweb_lib() / "markup"), *[str(f) for f in files]], capture_output=True,
                         text=True, encoding="utf-8")
    if out.returncode != 0:
        sys.exit(f"reading-path: noweb's markup failed:\n{out.stderr}")
    book, chunks, cur, skip_nl = {}, None, None, False
    for line in out.stdout.splitlines():
        kw, _, rest = line.partition(" ")
        if kw == "@file":
            chunks = book.setdefault(Path(rest), [])
        elif kw == "@begin":
            cur = Chunk(rest.split()[0])
            chunks.append(cur)
        elif kw == "@defn":
            cur.name, skip_nl = rest, True
        elif kw == "@nl":
            if skip_nl:
                skip_nl = False
            else:
                cur.text.append("\n")
        elif kw == "@text":
            cur.text.append(rest)
        elif kw == "@use":
            cur.uses.append(rest)
            cur.text.append(f"<<{rest}>>")
        elif kw == "@end":
            cur = None
    return book


def roots_of(book):
    """chunk name -> the root chunks (files) its code ends up in."""
    users = {}
    for chunks in book.values():
        for c in chunks:
            if c.kind == "code":
                users.setdefault(c.name, set())
                for u in c.uses:
                    users.setdefault(u, set()).add(c.name)
    memo = {}

    def roots(name, seen=()):
        if name in memo:
            return memo[name]
        if not users.get(name):
            r = {name}
        else:
            r = set()
            for u in users[name]:
                if u not in seen:
                    r |= roots(u, seen + (name,))
        memo[name] = r
        return r
    return roots


def kind(name, roots):
    """What a chunk is, for the table: the library, an example, a program, or plumbing."""
    if name.startswith("测试"):
        return "test"
    rs = roots(name)
    for k, prefixes in (("lib", ("src/", "include/")), ("example", ("examples/",)), ("program", ("programs/",)),
                        ("exercise", ("exercises/",)), ("bench", ("bench/",)), ("figure", ("figures/",)),
                        ("test", ("tests/",))):
        if any(r.startswith(prefixes) for r in rs):
            return k
    return "other"


def plumbing(rs):
    """Every root is a test, figure, benchmark or exercise file, or CMake."""
    return all(r.startswith(FORBIDDEN_ROOTS) or r.endswith(".cmake") or Path(r).name == "CMakeLists.txt"
               for r in rs)


def frame_problems(path, src, lines):
    """A chapter's frame (WRITING.md, 每章的框架): one ::: {.goals} box of 2-4 points before its first
    section, and a ## 小结 of 1-8 points just before its ## 练习."""
    where = str(path.relative_to(src))
    heads = [i for i, l in enumerate(lines) if LEVEL2.match(l)]
    goals = [i for i, l in enumerate(lines) if re.match(r"^:{3,}\s*\{[^}]*\.goals\b", l)]
    out = []
    if len(goals) != 1 or (heads and goals[0] > heads[0]):
        out.append(f"{where}: the chapter needs one ::: {{.goals}} box (本章目标) before its first section")
    else:
        end = next(i for i in range(goals[0] + 1, len(lines)) if lines[i].startswith(":::"))
        n = sum(1 for l in lines[goals[0]:end] if l.startswith("- "))
        if not 2 <= n <= 4:
            out.append(f"{where}:{goals[0] + 1}: 本章目标 has {n} points (2 to 4)")
    summary = [i for i in heads if re.match(r"^##\s+小结\b", lines[i])]
    exercises = [i for i in heads if re.match(r"^##\s+练习", lines[i])]
    if len(summary) != 1 or not exercises or heads[heads.index(summary[0]) + 1] != exercises[0]:
        out.append(f"{where}: the chapter needs one ## 小结, right before its ## 练习")
    else:
        n = sum(1 for l in lines[summary[0]:exercises[0]] if l.startswith("- "))
        if not 1 <= n <= 8:
            out.append(f"{where}:{summary[0] + 1}: 小结 has {n} points (1 to 8)")
    return out


def main():
    src = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    book = read(src)
    roots = roots_of(book)
    problems, rows = [], []
    total_prose = total_code = 0
    for path, chunks in book.items():
        m = re.match(r"(\d+)-", path.name)
        if not m:
            continue                                   # an appendix
        number = int(m.group(1))
        target = RATIO_EARLY if number <= 8 else RATIO_LATE
        lines = path.read_text(encoding="utf-8").split("\n")
        defn_lines = [i + 1 for i, l in enumerate(lines) if re.match(r"^<<.*>>=\s*$", l)]
        back, fence, prose, code, by_kind = False, None, 0, 0, {}
        first_back = None
        k = 0
        for c in chunks:
            if c.kind == "code":
                c.line = defn_lines[k] if k < len(defn_lines) else 0
                k += 1
                c.back = back
                if back:
                    continue
                n = nonblank("".join(c.text))
                code += n
                kd = kind(c.name, roots)
                by_kind[kd] = by_kind.get(kd, 0) + n
                where = f"{path.relative_to(src)}:{c.line}"
                if c.name.startswith("测试"):
                    problems.append(f"{where}: <<{c.name}>> is a test, defined in the reading path "
                                    "(define it in the back matter)")
                elif plumbing(roots(c.name)):
                    rs = sorted(roots(c.name))
                    problems.append(f"{where}: <<{c.name}>> ends up only in {', '.join(rs[:3])}"
                                    f"{' …' if len(rs) > 3 else ''}, defined in the reading path "
                                    "(define it in the back matter or an appendix)")
                continue
            # documentation: headings decide where the back matter starts
            for line in "".join(c.text).split("\n"):
                f = re.match(r"^(`{3,}|~{3,})", line)
                if fence is None and f:
                    fence = f.group(1)
                elif fence is not None and f and f.group(1)[0] == fence[0] and len(f.group(1)) >= len(fence):
                    fence = None
                elif fence is None and LEVEL2.match(line):
                    if BACKMATTER.match(line):
                        if not back:
                            first_back = line
                        back = True
                    elif back:
                        lineno = next((i + 1 for i, l in enumerate(lines) if l == line), 0)
                        problems.append(f"{path.relative_to(src)}:{lineno}: the heading “{line.strip()}” follows "
                                        f"the back matter's first heading (“{first_back.strip()}”) but lacks "
                                        "{.backmatter}")
                if not back:
                    prose += nonblank(line)
        if number >= 1:
            problems += frame_problems(path, src, lines)
        ratio = prose / code if code else float("inf")
        ok = ratio >= target
        if not ok:
            problems.append(f"{path.relative_to(src)}: reading-path prose / code = {prose} / {code} = "
                            f"{ratio:.2f}, below {target:.1f}")
        if number >= 1:
            total_prose += prose
            total_code += code
        mine = sum(1 for p in problems if p.startswith(str(path.relative_to(src)) + ":"))
        rows.append((path.name, prose, code, ratio, target, ok, by_kind, first_back is not None, mine))
    # the table
    kinds = ["lib", "example", "program", "exercise", "bench", "figure", "test", "other"]
    print(f"{'chapter':20} {'prose':>7} {'code':>7} {'ratio':>6} {'target':>6}  back problems " +
          " ".join(f"{k:>8}" for k in kinds))
    for name, prose, code, ratio, target, ok, by_kind, has_back, mine in rows:
        print(f"{name:20} {prose:7d} {code:7d} {ratio:6.2f} {'≥' + format(target, '.1f'):>6}  "
              f"{'yes' if has_back else 'no ':3}  {mine:5d}{' ' if ok else '✗'} " +
              " ".join(f"{by_kind.get(k, 0):8d}" for k in kinds))
    book_ratio = total_prose / total_code if total_code else float("inf")
    book_ok = book_ratio >= RATIO_BOOK
    print(f"{'chapters 1 and on':20} {total_prose:7d} {total_code:7d} {book_ratio:6.2f} "
          f"{'≥' + format(RATIO_BOOK, '.1f'):>6}            {' ' if book_ok else '✗'}")
    print("(non-blank characters of the reading path, before the first “## … {.backmatter}”; ✗: the ratio is "
          "below its target; code by kind: the files its chunks end up in)")
    if not book_ok:
        problems.append(f"chapters 1 and on: reading-path prose / code = {total_prose} / {total_code} = "
                        f"{book_ratio:.2f}, below {RATIO_BOOK:.1f}")
    if problems:
        print(f"\nreading-path: {len(problems)} problems:")
        for p in problems:
            print("  " + p)
        return 1
    print("\nreading-path: every reading path holds the explanation and the code it teaches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
