#!/bin/sh
# the documentation: README.md stays a front door (at most 150 lines), and every relative link
# in README.md and docs/ names a file that exists, and an anchor a heading of that file has
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

t_case "README.md has at most 150 lines"
n=$(wc -l <"$top/README.md")
if [ "$n" -le 150 ]; then t_pass; else t_fail "$n lines"; fi

t_case "every relative link of README.md and docs/ resolves (file, and #anchor to a heading)"
if python3 - "$top" >"$WORK/links.log" 2>&1 <<'PY'; then t_pass; else t_fail "$(cat "$WORK/links.log")"; fi
import os, re, sys
top = sys.argv[1]
files = [os.path.join(top, "README.md")]
for d, _, names in os.walk(os.path.join(top, "docs")):
    files += [os.path.join(d, n) for n in names if n.endswith(".md")]
def slugs(path):
    out = set()
    inside = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            inside = not inside
        m = None if inside else re.match(r"^#{1,6} +(.*?) *#*$", line.rstrip("\n"))
        if m:
            t = re.sub(r"[^\w\- ]", "", m.group(1).lower().replace("`", ""))
            out.add(t.replace(" ", "-"))
    return out
bad, n = [], 0
for f in files:
    text = open(f, encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        n += 1
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        if not os.path.exists(dest):
            bad.append("%s: %s: no such file" % (os.path.relpath(f, top), target))
        elif anchor and dest.endswith(".md") and anchor not in slugs(dest):
            bad.append("%s: %s: no heading for #%s" % (os.path.relpath(f, top), target, anchor))
assert not bad, "\n".join(bad)
assert n >= 20, n
print(n, "links")
PY
