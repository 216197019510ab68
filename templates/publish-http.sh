#!/bin/sh
# wheelgen publisher: HTTP PUT (WebDAV, S3-compatible gateways, artifact stores), with curl.
#
#   sh templates/publish-http.sh [--dry-run] [--retries N] URL FILE...
#        each FILE to URL/<its name>
#   sh templates/publish-http.sh [--dry-run] [--retries N] [--state FILE] --tree DIR URL
#        DIR's files to URL/<path under DIR>: files/ first, then the pages deepest first, so
#        that no page names a file that is not there yet
#   sh templates/publish-http.sh --verify NAME SHA256 URL
#        exit 0 when URL/NAME has that sha256, 1 otherwise (publish.sh: did another
#        publisher of the same cell replace the wheel meanwhile?)
#
# Every upload is read back (GET) and its sha256 compared with the file's: a server that
# stored something else is an error, not a success. A failed PUT, GET or comparison is tried
# again, up to N times in all (default 3), 2 s, 4 s, ... apart (WG_RETRY_SLEEP sets the
# first pause). --state FILE remembers what was sent (path and sha256) and sends only what
# changed since; an entry is recorded only after its read-back matched.
#
# Content-Type by name: .html text/html, index.json application/vnd.pypi.simple.v1+json
# (PEP 691), .metadata text/plain, anything else application/octet-stream. Names are
# percent-encoded ('+' as %2B).
#
# Credentials: WG_HTTP_TOKEN (sent as "Authorization: Bearer ...") or ~/.netrc; the token is
# handed to curl in a private file, never on a command line, and never printed.
# --dry-run prints what it would send, and sends nothing.
set -eu

usage() {
    printf 'usage: sh templates/publish-http.sh [--dry-run] [--retries N] URL FILE...\n       sh templates/publish-http.sh [--dry-run] [--retries N] [--state FILE] --tree DIR URL\n' >&2
    exit 2
}
dry=0
tries=3
tree=
state=
verify=
while [ "$#" -gt 0 ]; do
    case $1 in
        --dry-run) dry=1 ;;
        --verify)
            [ "$#" -ge 3 ] || usage
            verify=$2
            verifysha=$3
            shift 2
            ;;
        --retries | --tree | --state)
            [ "$#" -ge 2 ] || usage
            case $1 in
                --retries) tries=$2 ;;
                --tree) tree=$2 ;;
                --state) state=$2 ;;
            esac
            shift
            ;;
        -*) usage ;;
        *) break ;;
    esac
    shift
done
case $tries in
    '' | *[!0-9]* | 0) usage ;;
esac
[ "$#" -ge 1 ] || usage
url=$1
shift
case $url in
    http://* | https://*) ;;
    *) printf 'wheelgen: http: not an http:// or https:// URL: %s\n' "$url" >&2; exit 2 ;;
esac
case $url in
    */) ;;
    *) url=$url/ ;;
esac
# shellcheck source=templates/publish-lib.sh
. "$(dirname "$0")/publish-lib.sh"
[ -n "$verify" ] || wg_pub_operands http "$tree" "$#"
command -v curl >/dev/null 2>&1 || { printf 'wheelgen: http: curl is needed (apt-get install curl)\n' >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgpubhttp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# the credentials, in a file only we can read (curl -H @FILE); never an argument
: >"$tmp/headers"
chmod 600 "$tmp/headers"
if [ -n "${WG_HTTP_TOKEN:-}" ]; then
    printf 'Authorization: Bearer %s\n' "$WG_HTTP_TOKEN" >"$tmp/headers"
fi

# enc NAME: NAME percent-encoded for a URL path ('/' kept)
enc() {
    printf '%s' "$1" | od -An -tx1 -v | awk '
        BEGIN { for (i = 0; i < 256; i++) h[sprintf("%02x", i)] = i }
        {
            for (i = 1; i <= NF; i++) {
                c = sprintf("%c", h[$i])
                if (c ~ /[A-Za-z0-9._~\/-]/) printf "%s", c; else printf "%%%s", toupper($i)
            }
        }'
}

# ctype NAME: the Content-Type a client expects for NAME
ctype() {
    case $1 in
        *.html) echo 'text/html; charset=utf-8' ;;
        */index.json | index.json) echo 'application/vnd.pypi.simple.v1+json' ;;
        *.metadata) echo 'text/plain; charset=utf-8' ;;
        *) echo 'application/octet-stream' ;;
    esac
}

sha() { sha256sum "$1" | cut -d' ' -f1; }

if [ -n "$verify" ]; then
    curl -sS -f --netrc-optional -H @"$tmp/headers" -o "$tmp/back" "$url$(enc "$verify")" 2>/dev/null &&
        [ "$(sha "$tmp/back")" = "$verifysha" ]
    exit
fi

# sent REL SHA: did an earlier run send this very file? (the state's last entry for REL)
sent() {
    [ -n "$state" ] && [ -f "$state" ] || return 1
    [ "$(awk -v p="$1" '{ k = $0; sub(/^[^ ]* /, "", k); if (k == p) s = $1 } END { print s }' "$state")" = "$2" ]
}

# put SRC REL: PUT SRC at URL/REL and read it back, up to $tries times
put() {
    wg_sha=$(sha "$1")
    if sent "$2" "$wg_sha"; then
        return 0
    fi
    wg_to=$url$(enc "$2")
    wg_ct=$(ctype "$2")
    if [ "$dry" = 1 ]; then
        printf 'wheelgen: http: dry-run: PUT %s (%s bytes, sha256 %s, %s)\n' "$wg_to" "$(wc -c <"$1" | tr -d ' ')" "$wg_sha" "$wg_ct"
        return 0
    fi
    wg_try=1
    wg_sleep=${WG_RETRY_SLEEP:-2}
    while :; do
        wg_why=
        if ! curl -sS -f --netrc-optional -H @"$tmp/headers" -H "Content-Type: $wg_ct" \
            -T "$1" -o /dev/null "$wg_to" 2>"$tmp/err"; then
            wg_why="PUT failed: $(tail -n 1 "$tmp/err")"
        elif ! curl -sS -f --netrc-optional -H @"$tmp/headers" -o "$tmp/back" "$wg_to" 2>"$tmp/err"; then
            wg_why="reading it back failed: $(tail -n 1 "$tmp/err")"
        elif [ "$(sha "$tmp/back")" != "$wg_sha" ]; then
            wg_why="read back sha256 $(sha "$tmp/back"), sent $wg_sha"
        fi
        if [ -z "$wg_why" ]; then
            printf 'wheelgen: http: %s\n' "$wg_to"
            if [ -n "$state" ]; then
                printf '%s %s\n' "$wg_sha" "$2" >>"$state"
            fi
            return 0
        fi
        if [ "$wg_try" -ge "$tries" ]; then
            printf 'wheelgen: http: %s: %s (tried %s times)\n' "$wg_to" "$wg_why" "$wg_try" >&2
            exit 1
        fi
        printf 'wheelgen: http: %s: %s; trying again in %s s\n' "$wg_to" "$wg_why" "$wg_sleep" >&2
        sleep "$wg_sleep"
        wg_try=$((wg_try + 1))
        wg_sleep=$((wg_sleep * 2))
    done
}

if [ -z "$tree" ]; then
    wg_pub_files http "$@"
    exit 0
fi
wg_pub_tree "$tree" "$tmp/list"
