#!/bin/sh
# wheelgen upstream: the config brought up to date with upstream, as one pull request (run daily
# by .github/workflows/upstream.yml).
#
#   sh templates/upstream-pr.sh [--dry-run] [--config FILE] [--wheelgen PATH] [--repo OWNER/REPO]
#                               [--base BRANCH] [--branch BRANCH] [-- TORCH-TABLE-OPTION...]
#
# 1. wheelgen torch-table --write FILE --follow (new torch minors, Pythons, CUDAs; packages that
#    build for the newest torch get the new minors) and wheelgen outdated --write FILE (new
#    versions of the git packages); then wheelgen check FILE. Nothing changed: it stops there.
# 2. The summary: what changed (the lines torch-table and outdated print), the cells of each
#    profile before and after and how many are new, the canary (wheelgen matrix --canary: one
#    cell per package against the newest torch, what the pull request's checks build: a recipe
#    that fails there needs a patch), and the diff.
# 3. The pull request: FILE committed on BRANCH (default upstream/update; wheels.yml builds the
#    canary of a pull request from upstream/*), pushed with --force to origin, and one pull request
#    against BASE (default main) opened through the GitHub REST API, or the open one from BRANCH
#    updated: never two.
#
# --dry-run changes nothing: the updates are made to a copy of FILE beside it (removed), and the
# git commands and the requests (with their JSON bodies) are printed, not run; no token is needed.
# The API is $GITHUB_API_URL, else https://api.github.com. Credentials: GH_TOKEN, else
# GITHUB_TOKEN (contents: write, pull-requests: write), handed to curl in a private file, never on
# a command line, never printed. A pull request opened with a workflow's GITHUB_TOKEN starts no
# workflow run (GitHub's rule): give a personal or app token (the workflow's UPSTREAM_TOKEN
# secret) for its checks to build the canary.
# Exit status 0 (also when nothing changed), 1 on failure (nothing pushed), 2 on a usage error.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
# shellcheck source=templates/voice.sh
. "$here/voice.sh"
wg_voice upstream

usage() {
    printf 'usage: sh templates/upstream-pr.sh [--dry-run] [--config FILE] [--wheelgen PATH] [--repo OWNER/REPO] [--base BRANCH] [--branch BRANCH] [-- TORCH-TABLE-OPTION...]\n'
}
dry=0
cfg=config/packages.yml
wg=out/wheelgen
repo=${GITHUB_REPOSITORY:-}
base=main
branch=upstream/update
while [ "$#" -gt 0 ]; do
    case $1 in
        --dry-run) dry=1 ;;
        --config | --wheelgen | --repo | --base | --branch)
            [ "$#" -ge 2 ] || { wg_say '%s needs a value' "$1" >&2; usage >&2; exit 2; }
            case $1 in
                --config) cfg=$2 ;;
                --wheelgen) wg=$2 ;;
                --repo) repo=$2 ;;
                --base) base=$2 ;;
                --branch) branch=$2 ;;
            esac
            shift
            ;;
        -h | --help) usage; exit 0 ;;
        --) shift; break ;;
        *) wg_say 'unknown option: %s' "$1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
case $repo in
    */*/* | /* | */ | *[!A-Za-z0-9._/-]*) wg_die "not OWNER/REPO: '$repo'" ;;
    */*) ;;
    '')
        [ "$dry" = 1 ] || wg_die "no repository: give --repo OWNER/REPO (or set GITHUB_REPOSITORY)"
        repo=OWNER/REPO
        ;;
    *) wg_die "not OWNER/REPO: '$repo'" ;;
esac
case $branch$base in
    *[!A-Za-z0-9._/-]* | *..*) wg_die "branch names may hold letters, digits and '-_./'" ;;
esac
[ -f "$cfg" ] || wg_die "no such config: $cfg"
[ -x "$wg" ] || wg_die "no wheelgen at $wg (ninja out/wheelgen builds it)"
if [ "$dry" = 0 ]; then
    command -v curl >/dev/null 2>&1 || wg_die "curl is needed"
    if [ -z "${GH_TOKEN:+x}" ] && [ -z "${GITHUB_TOKEN:+x}" ]; then
        wg_die "no token: set GH_TOKEN or GITHUB_TOKEN (contents: write and pull-requests: write on $repo)"
    fi
fi
# shellcheck source=templates/publish-lib.sh
. "$here/publish-lib.sh"
wg_github_py "$here"
api=${GITHUB_API_URL:-https://api.github.com}
api=${api%/}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgupstream.XXXXXX")
dir=$(dirname "$cfg")
old=$dir/.upstream-old.$$.yml
work=$cfg
[ "$dry" = 0 ] || work=$dir/.upstream-new.$$.yml
trap 'rm -rf "$tmp" "$old"; [ "$work" = "$cfg" ] || rm -f "$work"' EXIT
trap 'exit 1' HUP INT TERM
cp "$cfg" "$old"
[ "$work" = "$cfg" ] || cp "$cfg" "$work"

# --- 1. the updates ----------------------------------------------------------------------

"$wg" torch-table --write "$work" --follow "$@" >"$tmp/torch.out" || wg_die "torch-table failed: $cfg is left as it was"
if ! "$wg" outdated --write "$work" >"$tmp/outdated.out"; then
    [ "$work" = "$cfg" ] && cp "$old" "$cfg"
    wg_die "outdated failed: $cfg is left as it was"
fi
cat "$tmp/torch.out" "$tmp/outdated.out"
if cmp -s "$old" "$work"; then
    wg_say 'nothing changed upstream: no pull request'
    exit 0
fi
if ! "$wg" check --config "$work" >"$tmp/check.out" 2>&1; then
    cat "$tmp/check.out" >&2
    [ "$work" = "$cfg" ] && cp "$old" "$cfg"
    wg_die "the updated config does not check: no pull request ($cfg is left as it was)"
fi

# --- 2. the summary ----------------------------------------------------------------------

# the change lines, without wheelgen's prefix (wg_unsay) and the lines about writing
# shellcheck disable=SC2119 # (the prefix alone: no context)
grep -hv ': wrote \|: the torch table is up to date\|: every version is up to date' "$tmp/torch.out" "$tmp/outdated.out" |
    wg_unsay >"$tmp/changes" || true
# the title: the new torch minors and package versions, else "the torch table"
title=$(sed -n 's/^torch \([0-9.]*\): a new row.*/torch \1/p; s/^package \([^:]*\): versions + \(.*\)/\1 \2/p' "$tmp/changes" |
    head -n 4 | paste -sd, - | sed 's/,/, /g')
[ -n "$title" ] || title="the torch table"
title="Upstream: $title"
cells() { # cells CONFIG [PROFILE]: the cell ids, sorted
    if [ -n "${2:-}" ]; then "$wg" matrix --config "$1" --profile "$2" 2>/dev/null | sort; else "$wg" matrix --config "$1" | sort; fi
}
{
    cat <<'MD'
The daily upstream check (`templates/upstream-pr.sh`, `.github/workflows/upstream.yml`) found:

MD
    sed 's/^/- /' "$tmp/changes"
    printf '\n### Cells per profile\n\n| profile | before | after | new |\n|---|---:|---:|---:|\n'
    "$wg" matrix --config "$work" --count | while IFS="$(printf '\t')" read -r prof n _; do
        p=$prof
        [ "$p" != "(all)" ] || p=
        cells "$old" "$p" >"$tmp/before" || true
        cells "$work" "$p" >"$tmp/after"
        printf '| %s | %s | %s | %s |\n' "$prof" "$(wc -l <"$tmp/before" | tr -d ' ')" "$n" "$(comm -13 "$tmp/before" "$tmp/after" | wc -l | tr -d ' ')"
    done
    cat <<'MD'

### Canary

This pull request's checks build one cell per package against the newest torch (`wheelgen matrix
--canary`): a package whose cell fails needs a patch, or the new minor left out of its `torch:`
list, before this is merged. Merged, the plan builds only the new cells (`matrix --missing`).

```
MD
    "$wg" matrix --config "$work" --canary
    cat <<'MD'
```

### Diff

```diff
MD
    diff -u --label "a/${cfg#/}" --label "b/${cfg#/}" "$old" "$work" | head -c 50000 || true
    printf '```\n'
} >"$tmp/body"

# --- 3. the pull request -----------------------------------------------------------------

if [ "$dry" = 0 ]; then
    wg_auth "$tmp/auth" GH_TOKEN GITHUB_TOKEN || wg_die "the token in GH_TOKEN/GITHUB_TOKEN holds a blank or a control character"
else
    wg_auth "$tmp/auth"
fi
# req METHOD URL OUT [CURL-ARGS...]: one request (3 tries on connection errors, 5xx and 429); $code
req() {
    wg_method=$1 wg_url=$2 wg_out=$3
    shift 3
    wg_try=1
    while :; do
        wg_rc=0
        code=$(wg_curl "$tmp/auth" -sS --connect-timeout 30 --max-time 120 -H 'Accept: application/vnd.github+json' \
            -H 'X-GitHub-Api-Version: 2022-11-28' -X "$wg_method" -o "$wg_out" -w '%{http_code}' "$@" "$wg_url" 2>"$tmp/err") || wg_rc=$?
        case $wg_rc:$code in
            0:5?? | 0:429 | [1-9]*) ;;
            *) return 0 ;;
        esac
        [ "$wg_try" -lt 3 ] || wg_die "$wg_method $wg_url failed: $(tail -n 1 "$tmp/err") (HTTP $code)"
        sleep $((wg_try * 2))
        wg_try=$((wg_try + 1))
    done
}
owner=${repo%%/*}
qhead=$(py quote "$owner:$branch" ':')
pulls=$api/repos/$repo/pulls
if [ "$dry" = 1 ]; then
    wg_say 'dry-run: %s' "git switch -C $branch && git commit -m '$title' $cfg && git push --force origin $branch"
    wg_say 'dry-run: %s' "GET $pulls?head=$qhead&state=open"
    wg_say 'dry-run: %s' "POST $pulls $(py pull "$title" "$tmp/body" "$branch" "$base")"
    printf '\n--- the pull request: %s (%s <- %s) ---\n' "$title" "$base" "$branch"
    cat "$tmp/body"
    exit 0
fi
git switch -q -C "$branch"
git add "$cfg"
git -c user.name="${GIT_AUTHOR_NAME:-github-actions[bot]}" \
    -c user.email="${GIT_AUTHOR_EMAIL:-41898282+github-actions[bot]@users.noreply.github.com}" \
    commit -q -m "$title" -m "$(cat "$tmp/changes")"
git push -q --force origin "$branch"
req GET "$pulls?head=$qhead&state=open" "$tmp/pulls.json"
[ "$code" = 200 ] || wg_die "GET $pulls: HTTP $code$(py message "$tmp/pulls.json" | sed 's/^/: /')"
open=$(py pulls "$tmp/pulls.json")
if [ "$open" = - ]; then
    req POST "$pulls" "$tmp/pr.json" -H 'Content-Type: application/json' --data-binary "$(py pull "$title" "$tmp/body" "$branch" "$base")"
    [ "$code" = 201 ] || wg_die "POST $pulls: HTTP $code$(py message "$tmp/pr.json" | sed 's/^/: /')"
    wg_say '%s' "opened $(py pulls "$tmp/pr.json" 2>/dev/null || echo 'the pull request')"
else
    req PATCH "$pulls/${open%% *}" "$tmp/pr.json" -H 'Content-Type: application/json' --data-binary "$(py pull "$title" "$tmp/body")"
    [ "$code" = 200 ] || wg_die "PATCH $pulls/${open%% *}: HTTP $code$(py message "$tmp/pr.json" | sed 's/^/: /')"
    wg_say '%s' "updated pull request ${open#* }"
fi
