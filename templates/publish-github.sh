#!/bin/sh
# wheelgen publisher: assets of a GitHub release, through the REST API, with curl.
#
#   sh templates/publish-github.sh [--dry-run] [--replace] [--retries N] [--timeout S] [--stall S] OWNER/REPO TAG FILE...
#        each FILE as an asset <its name> of the release TAG of OWNER/REPO
#
# The release is created when missing (GitHub then makes the tag from the default branch). An
# asset of the same name whose sha256 (GitHub's "digest") is the file's is left as it is; one
# with another sha256, or none, is an error, unless --replace, which deletes it and uploads
# the file. All the files are checked before anything is uploaded, so a refused replacement
# uploads nothing. An upload whose returned digest is not the file's sha256 is an error.
# Each request is tried up to N times in all (default 3) on connection errors, 5xx but 507,
# and 429, 2 s, 4 s, ... apart (WG_RETRY_SLEEP sets the first pause), and gives up after
# --timeout seconds in all (default 1800) or --stall seconds under 1 KiB/s (default 60); a
# request that timed out is not tried again (exit status 3: the API is given up on).
#
# GitHub's limits are met before anything is sent: a file over 2 GiB is refused, and so are
# files that would take the release past 1,000 assets. The release's assets are read from
# the API's list, every page of it (100 a page), not from the release's own answer.
# A release has no rename that replaces an asset in one step: when a cell's wheel is replaced
# (--replace) and the last FILE is that cell's <cell>.manifest, the manifest asset is deleted
# first, so that a publish killed in between leaves the cell missing (a plan builds it again),
# never a manifest that names other bytes than the release holds.
#
# The API is $GITHUB_API_URL (as GitHub Actions sets it), else https://api.github.com.
# Credentials: GH_TOKEN, else GITHUB_TOKEN (needs contents: write). The token is handed to
# curl in a private file (curl -H @FILE), never on a command line, and never printed.
#
# --dry-run prints each request it would make and makes none (no token needed). The answer
# to the release's GET is WG_GITHUB_DRYRUN_DIR/release.json when that file exists; otherwise
# the release is taken as missing.
# Prints one line per file: uploaded, replaced or skipped. Exit status 1 on failure, 2 on a
# usage error, 3 when a request timed out.
set -eu
case $0 in */*) gh_here=${0%/*} ;; *) gh_here=. ;; esac
# shellcheck source=templates/voice.sh
. "$gh_here/voice.sh"
wg_voice github

usage() {
    printf 'usage: sh templates/publish-github.sh [--dry-run] [--replace] [--retries N] [--timeout S] [--stall S] OWNER/REPO TAG FILE...\n'
}
bad() {
    [ "$#" -eq 0 ] || wg_say '%s' "$*" >&2
    usage >&2
    exit 2
}
dry=0
replace=0
tries=3
timeout=1800
stall=60
while [ "$#" -gt 0 ]; do
    case $1 in
        --dry-run) dry=1 ;;
        --replace) replace=1 ;;
        --retries | --timeout | --stall)
            [ "$#" -ge 2 ] || bad "$1 needs a number"
            case $1 in
                --retries) tries=$2 ;;
                --timeout) timeout=$2 ;;
                --stall) stall=$2 ;;
            esac
            shift
            ;;
        -h | --help)
            usage
            exit 0
            ;;
        --) shift; break ;;
        -*) bad "unknown option: $1" ;;
        *) break ;;
    esac
    shift
done
case $tries in
    '' | *[!0-9]* | 0*) bad "--retries takes a whole number of tries, 1 or more, not '$tries'" ;;
esac
case $timeout$stall in
    '' | *[!0-9]*) bad "--timeout and --stall take whole numbers of seconds" ;;
esac
[ "$#" -ge 3 ] || bad
repo=$1
tag=$2
shift 2
case $repo in
    */*/* | /* | */ | *[!A-Za-z0-9._/-]*) bad "not OWNER/REPO: $repo" ;;
    */*) ;;
    *) bad "not OWNER/REPO: $repo" ;;
esac
case $tag in
    '' | *[!A-Za-z0-9._/+-]*) bad "the tag may hold letters, digits and '-_./+', not '$tag'" ;;
esac
if [ "$dry" = 0 ]; then
    command -v curl >/dev/null 2>&1 || wg_die "curl is needed (apt-get install curl)"
    # ${VAR:+x}: a test that, traced (sh -x), shows no token
    if [ -z "${GH_TOKEN:+x}" ] && [ -z "${GITHUB_TOKEN:+x}" ]; then
        wg_die "no token: set GH_TOKEN or GITHUB_TOKEN (a token with contents: write on $repo)"
    fi
fi

api=${GITHUB_API_URL:-https://api.github.com}
api=${api%/}

# GitHub holds at most 2 GiB an asset: refused before any request
for f in "$@"; do
    [ -f "$f" ] || wg_die "no such file: $f"
    size=$(wc -c <"$f" | tr -d ' ')
    [ "$size" -le 2147483648 ] ||
        wg_die "${f##*/} is $size bytes, over the 2 GiB (2147483648 bytes) GitHub allows an asset; nothing sent"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgpubgh.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
# shellcheck source=templates/publish-lib.sh
. "$gh_here/publish-lib.sh"
# the credentials, in a file only we can read (publish-lib.sh's wg_auth): neither a command
# line nor a trace ever holds the token
if [ "$dry" = 0 ]; then
    wg_auth "$tmp/auth" GH_TOKEN GITHUB_TOKEN || wg_die "the token in GH_TOKEN/GITHUB_TOKEN holds a blank or a control character"
else
    wg_auth "$tmp/auth"
fi

# JSON and URL helpers (no jq here): templates/github-json.py
wg_github_py "$gh_here"

sha() { sha256sum "$1" | cut -d' ' -f1; }

# enc NAME: NAME percent-encoded for a query (letters, digits and '._~-' kept)
enc() {
    printf '%s' "$1" | od -An -tx1 -v | awk '
        BEGIN { for (i = 0; i < 256; i++) h[sprintf("%02x", i)] = i }
        {
            for (i = 1; i <= NF; i++) {
                c = sprintf("%c", h[$i])
                if (c ~ /[A-Za-z0-9._~-]/) printf "%s", c; else printf "%%%s", toupper($i)
            }
        }'
}

# the API's message in the answer FILE, as ": message" (nothing when it has none)
msg() {
    wg_m=$(py message "$1" 2>/dev/null || true)
    [ -z "$wg_m" ] || printf ': %s' "$wg_m"
}

# req METHOD URL OUT [CURL-ARGS...]: make the request, up to $tries times on connection
# errors, 5xx and 429; sets $code to the HTTP status and leaves the answer's body in OUT.
# Any other status is left to the caller.
req() {
    wg_method=$1 wg_url=$2 wg_out=$3
    shift 3
    wg_try=1
    wg_sleep=${WG_RETRY_SLEEP:-2}
    while :; do
        : >"$wg_out"
        wg_rc=0
        code=$(wg_curl "$tmp/auth" -sS --connect-timeout 30 --max-time "$timeout" --speed-limit 1024 --speed-time "$stall" \
            -H 'Accept: application/vnd.github+json' -H 'X-GitHub-Api-Version: 2022-11-28' \
            -X "$wg_method" -o "$wg_out" -w '%{http_code}' "$@" "$wg_url" 2>"$tmp/err") || wg_rc=$?
        if [ "$wg_rc" = 28 ]; then
            # a request that timed out is not tried again: the API is given up on (status 3)
            wg_fail 3 '%s %s failed: %s (--timeout %s s, --stall %s s)' "$wg_method" "$wg_url" "$(tail -n 1 "$tmp/err")" "$timeout" "$stall"
        elif [ "$wg_rc" != 0 ]; then
            wg_why=$(tail -n 1 "$tmp/err")
            [ -n "$wg_why" ] || wg_why="curl exit status $wg_rc"
        else
            case $code in
                507) return 0 ;;
                5?? | 429) wg_why="HTTP $code$(msg "$wg_out")" ;;
                *) return 0 ;;
            esac
        fi
        if [ "$wg_try" -ge "$tries" ]; then
            wg_die "$wg_method $wg_url failed: $wg_why (tried $wg_try times)"
        fi
        wg_say '%s %s failed: %s; trying again in %s s' "$wg_method" "$wg_url" "$wg_why" "$wg_sleep" >&2
        sleep "$wg_sleep"
        wg_try=$((wg_try + 1))
        wg_sleep=$((wg_sleep * 2))
    done
}

# apifail METHOD URL OUT: an unexpected answer is an error, with the API's message
apifail() {
    wg_hint=
    case $code in
        401 | 403) wg_hint=" (does the token in GH_TOKEN/GITHUB_TOKEN have contents: write on $repo?)" ;;
    esac
    wg_die "$1 $2: HTTP $code$(msg "$3")$wg_hint"
}

# --- the release ---------------------------------------------------------------------

# (a tag holds letters, digits and '-_./+': only '+' needs quoting)
qtag=$(printf '%s' "$tag" | sed 's/+/%2B/g')
relurl=$api/repos/$repo/releases/tags/$qtag
release=$tmp/release.json
found=0
created=0
if [ "$dry" = 1 ]; then
    wg_say 'dry-run: %s' "GET $relurl"
    if [ -n "${WG_GITHUB_DRYRUN_DIR:-}" ] && [ -f "$WG_GITHUB_DRYRUN_DIR/release.json" ]; then
        cp "$WG_GITHUB_DRYRUN_DIR/release.json" "$release"
        found=1
    fi
else
    req GET "$relurl" "$release"
    case $code in
        200) found=1 ;;
        404) ;;
        *) apifail GET "$relurl" "$release" ;;
    esac
fi
if [ "$found" = 0 ]; then
    body=$(printf '{"tag_name": "%s", "name": "%s"}' "$tag" "$tag")
    if [ "$dry" = 1 ]; then
        wg_say 'dry-run: %s' "POST $api/repos/$repo/releases $body"
        printf '{"id": "<id>", "assets": []}\n' >"$release"
    else
        req POST "$api/repos/$repo/releases" "$release" -H 'Content-Type: application/json' --data-binary "$body"
        case $code in
            201)
                created=1
                wg_say 'created the release %s of %s' "$tag" "$repo" >&2
                ;;
            422)
                # another publish (a parallel ninja job) may have created it meanwhile
                req GET "$relurl" "$tmp/again.json"
                [ "$code" = 200 ] || { code=422; apifail POST "$api/repos/$repo/releases" "$release"; }
                mv -f "$tmp/again.json" "$release"
                ;;
            *) apifail POST "$api/repos/$repo/releases" "$release" ;;
        esac
    fi
fi
info=$(py release "$release") || exit 1
relid=${info%% *}
# the release's assets, every page of the API's list (the release's own answer may hold only
# some): $tmp/assets.1.json ... (a release just created has none; a dry-run reads release.json's)
pages=
if [ "$dry" = 1 ]; then
    pages=$release
elif [ "$created" = 0 ]; then
    page=1
    while :; do
        req GET "$api/repos/$repo/releases/$relid/assets?per_page=100&page=$page" "$tmp/assets.$page.json"
        [ "$code" = 200 ] || apifail GET "$api/repos/$repo/releases/$relid/assets?per_page=100&page=$page" "$tmp/assets.$page.json"
        pages="$pages $tmp/assets.$page.json"
        [ "$(py count "$tmp/assets.$page.json")" -ge 100 ] || break
        page=$((page + 1))
    done
fi
upload=${info#* }
upload=${upload%%\{*}
if [ "$upload" = - ]; then
    case $api in
        https://api.github.com) upload=https://uploads.github.com/repos/$repo/releases/$relid/assets ;;
        *) upload=${api%/v3}/uploads/repos/$repo/releases/$relid/assets ;;
    esac
fi

# --- what to do with each file, decided before anything is sent ----------------------

plan=$tmp/plan
: >"$plan"
names='
'
# "ID DIGEST" of each FILE's asset ("- -": none), in order, and how many assets the release has
for f in "$@"; do printf '%s\n' "${f##*/}"; done >"$tmp/names"
if [ -n "$pages" ]; then
    # shellcheck disable=SC2086 # the pages, split
    py assets "$tmp/names" $pages >"$tmp/have" || exit 1
else
    { echo 0; sed 's/.*/- -/' "$tmp/names"; } >"$tmp/have"
fi
nhave=$(sed -n 1p "$tmp/have")
refused=0
i=1
for f in "$@"; do
    i=$((i + 1))
    name=${f##*/}
    case $name in
        *'
'*) wg_die "a file name with a newline: $f" ;;
    esac
    case $names in
        *"
$name
"*) wg_die "two files named $name" ;;
    esac
    names="$names$name
"
    fsha=$(sha "$f")
    asset=$(sed -n "${i}p" "$tmp/have")
    if [ "$asset" = '- -' ]; then
        act=upload id=- old=-
    else
        id=${asset%% *}
        old=${asset#* }
        if [ "$old" = "sha256:$fsha" ]; then
            act=skip
        elif [ "$replace" = 1 ]; then
            act=replace
        else
            act=refuse
            refused=1
            if [ "$old" = - ]; then
                wg_say '%s is already in %s %s, with no sha256 digest; %s has sha256 %s. Not replacing it without --replace (publish.github.replace: true)' \
                    "$name" "$repo" "$tag" "$f" "$fsha" >&2
            else
                wg_say '%s is already in %s %s with another sha256: the asset has %s, %s has %s. Not replacing it without --replace (publish.github.replace: true)' \
                    "$name" "$repo" "$tag" "${old#sha256:}" "$f" "$fsha" >&2
            fi
        fi
    fi
    printf '%s %s %s %s\n' "$act" "$fsha" "$id" "$old" >>"$plan"
done
[ "$refused" = 0 ] || exit 1
# GitHub holds at most 1,000 assets a release
nnew=$(awk '/^upload / { n++ } END { print n + 0 }' "$plan")
if [ $((nhave + nnew)) -gt 1000 ]; then
    wg_die "the release $tag of $repo holds $nhave assets: $nnew more would pass the 1,000 GitHub allows a release; nothing sent"
fi

# --- and doing it ---------------------------------------------------------------------

# a cell's wheel replaced: its manifest (the last file) goes first, never to name other bytes
last=
for f in "$@"; do last=$f; done
case ${last##*/} in
    *.manifest)
        if grep -q '^replace ' "$plan"; then
            massets=$(sed -n '$p' "$tmp/have")
            if [ "$massets" != '- -' ]; then
                mid=${massets%% *}
                if [ "$dry" = 1 ]; then
                    wg_say 'dry-run: %s' "DELETE $api/repos/$repo/releases/assets/$mid (the manifest, before its wheel is replaced)"
                else
                    req DELETE "$api/repos/$repo/releases/assets/$mid" "$tmp/delete.json"
                    case $code in
                        204 | 404) ;;
                        *) apifail DELETE "$api/repos/$repo/releases/assets/$mid" "$tmp/delete.json" ;;
                    esac
                fi
                # (it is uploaded last, as a new asset)
                sed -i '$ s/^[a-z]* \([^ ]*\) .*/upload \1 - -/' "$plan"
            fi
        fi
        ;;
esac

i=0
for f in "$@"; do
    i=$((i + 1))
    name=${f##*/}
    read -r act fsha id old <<EOF
$(sed -n "${i}p" "$plan")
EOF
    if [ "$act" = skip ]; then
        wg_say '%s already in %s %s (same sha256), skipped' "$name" "$repo" "$tag"
        continue
    fi
    to="$upload?name=$(enc "$name")"
    size=$(wc -c <"$f" | tr -d ' ')
    if [ "$dry" = 1 ]; then
        [ "$act" != replace ] || wg_say 'dry-run: %s' "DELETE $api/repos/$repo/releases/assets/$id"
        wg_say 'dry-run: %s' "POST $to ($size bytes, sha256 $fsha)"
        continue
    fi
    if [ "$act" = replace ]; then
        req DELETE "$api/repos/$repo/releases/assets/$id" "$tmp/delete.json"
        case $code in
            204 | 404) ;;
            *) apifail DELETE "$api/repos/$repo/releases/assets/$id" "$tmp/delete.json" ;;
        esac
    fi
    # -T streams the file (--data-binary @FILE would read a large wheel into memory first)
    req POST "$to" "$tmp/asset.json" -H 'Content-Type: application/octet-stream' -H 'Expect:' -T "$f"
    case $code in
        200 | 201) ;;
        *) apifail POST "$to" "$tmp/asset.json" ;;
    esac
    got=$(py uploaded "$tmp/asset.json") || exit 1
    gotsha=${got%% *}
    gotname=${got#* }
    if [ "$gotsha" != - ] && [ "$gotsha" != "sha256:$fsha" ]; then
        wg_die "$name in $repo $tag: GitHub has sha256 ${gotsha#sha256:} for the upload, $f has $fsha (the asset is bad: delete it, or publish again with --replace)"
    fi
    if [ "$gotname" != - ] && [ "$gotname" != "$name" ]; then
        wg_say 'GitHub renamed %s to %s' "$name" "$gotname" >&2
    fi
    if [ "$act" = replace ]; then
        [ "$old" != - ] || old='none'
        wg_say 'replaced %s in %s %s (sha256 was %s, now %s)' "$name" "$repo" "$tag" "${old#sha256:}" "$fsha"
    else
        wg_say 'uploaded %s to %s %s' "$name" "$repo" "$tag"
    fi
done
