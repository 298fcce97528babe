#!/usr/bin/env python3
"""tools/live.py — the files of the HTML book's live figures (see tools/live.cmake).

  live.py wasm ATTN.WASM OUT.js
      OUT.js defines ATTN_WASM_BASE64, the bytes of the library as base64 (a page opened from
      file:// cannot fetch() the .wasm beside it, but it can load a script).
  live.py model CHECKPOINT OUT.js
      OUT.js defines ATTN_POEM_MODEL_BASE64, chapter 13's checkpoint (a safetensors file) as
      base64, for its live figure (loaded by that figure only, when the page shows it).
  live.py data OUT.js EXPECTED.json LIVE.json...
      each LIVE.json (printed by a chapter's figures/live-chNN.c) is {"data": {...}, "checks": [...]};
      OUT.js defines ATTN_LIVE_DATA, every program's "data"; EXPECTED.json lists every "check"
      for the browser test. Files are rewritten only when their content changes.
"""
import base64
import json
import os
import sys


def write_if_changed(path, text):
    """Write PATH when TEXT differs from it; otherwise only mark it as new, so that make finds
    the rule done instead of running it again at every build."""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                os.utime(path)
                return
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def main(argv):
    if len(argv) == 3 and argv[0] == "wasm":
        with open(argv[1], "rb") as f:
            b64 = base64.b64encode(f.read()).decode("ascii")
        write_if_changed(argv[2], "// libattn compiled to WebAssembly (tools/live.cmake), as base64\n"
                         f'var ATTN_WASM_BASE64 = "{b64}";\n')
        return 0
    if len(argv) == 3 and argv[0] == "model":
        with open(argv[1], "rb") as f:
            b64 = base64.b64encode(f.read()).decode("ascii")
        write_if_changed(argv[2], "// chapter 13's checkpoint (safetensors) as base64, for its live figure\n"
                         f'var ATTN_POEM_MODEL_BASE64 = "{b64}";\n')
        return 0
    if len(argv) >= 3 and argv[0] == "data":
        data, checks = {}, []
        for path in argv[3:]:
            with open(path, encoding="utf-8") as f:
                try:
                    one = json.load(f)
                except json.JSONDecodeError as e:
                    print(f"live.py: {path}: {e}", file=sys.stderr)
                    return 1
            data.update(one["data"])
            checks.extend(one["checks"])
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        write_if_changed(argv[1], "// the inputs of the live figures, printed by figures/live-*.c\n"
                         f"var ATTN_LIVE_DATA = {text};\n")
        write_if_changed(argv[2], json.dumps(checks, ensure_ascii=False, indent=1) + "\n")
        return 0
    print(__doc__.strip().splitlines()[2], file=sys.stderr)
    print("usage: live.py wasm ATTN.WASM OUT.js | live.py model CHECKPOINT OUT.js | "
          "live.py data OUT.js EXPECTED.json LIVE.json...", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
