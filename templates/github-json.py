#!/usr/bin/env python3
"""JSON and URL helpers of templates/publish-github.sh and upstream-pr.sh (no jq on the hosts
they run on).

    python3 templates/github-json.py quote TEXT SAFE     TEXT percent-encoded
    python3 templates/github-json.py create TAG          the body that creates release TAG
    python3 templates/github-json.py release FILE        "ID UPLOAD_URL" of a release answer
    python3 templates/github-json.py asset FILE NAME     "ID DIGEST" of release asset NAME
    python3 templates/github-json.py assets NAMES PAGE...
                                                         how many assets the PAGEs (lists of the
                                                         API, or a release with its assets) hold,
                                                         then "ID DIGEST" of each name in NAMES
                                                         ("- -": none; "-" digest: none)
    python3 templates/github-json.py count FILE          how many items a list holds
    python3 templates/github-json.py uploaded FILE       "DIGEST NAME" of an uploaded asset
    python3 templates/github-json.py message FILE        the API error message of an answer
    python3 templates/github-json.py pull TITLE BODYFILE [HEAD BASE]
                                                         the body that opens a pull request
                                                         (without HEAD and BASE: that edits one)
    python3 templates/github-json.py pulls FILE          "NUMBER URL" of a pull request, or of the
                                                         first of a list ("-" when there is none)
"""
import json, sys, urllib.parse
cmd, args = sys.argv[1], sys.argv[2:]
def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("wheelgen: github: %s: not a JSON answer (%s)" % (path, e))
if cmd == "quote":          # TEXT SAFE: TEXT percent-encoded
    print(urllib.parse.quote(args[0], safe=args[1]))
elif cmd == "create":       # TAG: the body that creates its release
    print(json.dumps({"tag_name": args[0], "name": args[0]}))
elif cmd == "release":      # FILE: "ID UPLOAD_URL" of a release
    d = load(args[0])
    if not isinstance(d, dict) or "id" not in d:
        sys.exit("wheelgen: github: %s: no release in the answer" % args[0])
    print(d["id"], d.get("upload_url") or "-")
elif cmd == "asset":        # FILE NAME: "ID DIGEST" of the release asset NAME ("-": no digest)
    d = load(args[0])
    for a in d.get("assets") or []:
        if a.get("name") == args[1]:
            print(a.get("id"), a.get("digest") or "-")
            break
elif cmd == "assets":       # NAMES PAGE...: the count, then "ID DIGEST" per name
    have = {}
    for page in args[1:]:
        d = load(page)
        for a in (d.get("assets") or []) if isinstance(d, dict) else d:
            have[a.get("name")] = "%s %s" % (a.get("id"), a.get("digest") or "-")
    print(len(have))
    with open(args[0], encoding="utf-8") as f:
        for name in f.read().splitlines():
            print(have.get(name, "- -"))
elif cmd == "count":        # FILE: how many items a list holds
    d = load(args[0])
    print(len(d) if isinstance(d, list) else 0)
elif cmd == "uploaded":     # FILE: "NAME DIGEST" of an uploaded asset
    d = load(args[0])
    print(d.get("digest") or "-", d.get("name") or "-")
elif cmd == "pull":         # TITLE BODYFILE [HEAD BASE]: a pull request's fields
    with open(args[1], encoding="utf-8") as f:
        d = {"title": args[0], "body": f.read()}
    if len(args) == 4:
        d.update(head=args[2], base=args[3], maintainer_can_modify=True)
    print(json.dumps(d))
elif cmd == "pulls":        # FILE: "NUMBER URL" of a pull request, or of the first one listed
    d = load(args[0])
    if isinstance(d, list):
        d = d[0] if d else None
    if d is not None and not (isinstance(d, dict) and "number" in d):
        sys.exit("wheelgen: github: %s: no pull request in the answer" % args[0])
    print("%s %s" % (d["number"], d.get("html_url") or "-") if d else "-")
elif cmd == "message":      # FILE: the API error message of an answer (or its start)
    try:
        with open(args[0], encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        sys.exit(0)
    try:
        d = json.loads(text)
        m = [str(d.get("message") or "")]
        for e in d.get("errors") or []:
            m.append(str(e.get("message") or e.get("code") or e) if isinstance(e, dict) else str(e))
        print("; ".join(x for x in m if x))
    except (ValueError, AttributeError):
        print(" ".join(text.split())[:200])

