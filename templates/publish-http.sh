#!/bin/sh
# wheelgen publisher: HTTP PUT (WebDAV, S3-compatible gateways, artifact stores), with curl.
#
#   sh templates/publish-http.sh [options] [--prefix REL] URL FILE...
#        each FILE to URL/[REL/]<its name>
#   sh templates/publish-http.sh [options] [--state FILE] --tree DIR URL
#        DIR's files to URL/<path under DIR>: files/ first, then the pages deepest first, so
#        that no page names a file that is not there yet
#   sh templates/publish-http.sh [--timeout S] [--stall S] --cat NAME URL
#        print URL/NAME (nothing, status 0, when the store has no such file)
#   sh templates/publish-http.sh [--timeout S] [--stall S] --size NAME URL
#        print URL/NAME's size (nothing, status 0, when the store has no such file)
# options: [--dry-run] [--retries N] [--timeout SECONDS] [--stall SECONDS] [--tmp-dir REL]
#          [--no-replace]
#
# Each file is PUT under a temporary name beside its destination (NAME.tmp.<pid>-<random>; with
# --tmp-dir REL, URL/REL/<its name>.tmp.<pid>-<random>, where a store's stray temporaries are
# found: wheelgen store --unused), read back (GET) and its sha256 compared with the file's, then
# moved into place with WebDAV's MOVE: a reader never sees half a file, and a publish killed at
# any moment leaves the old file or the new one. With --no-replace the MOVE does not overwrite
# (Overwrite: F): a destination that is there already stays, and the exit status is 4. A server
# without MOVE (an S3 gateway, whose PUT replaces an object whole) gets the file PUT at its name
# (with If-None-Match: * under --no-replace) and read back there. A failed PUT, GET, MOVE or comparison is tried
# again, up to N times in all (default 3), 2 s, 4 s, ... apart (WG_RETRY_SLEEP sets the
# first pause). Every request gives up after --timeout seconds in all (default 1800) or
# --stall seconds under 1 KiB/s (default 60): a server that accepts the connection and never
# answers fails the publish, naming the URL. --state FILE remembers what was sent (path and
# sha256) and sends only what changed since; an entry is recorded only after its read-back
# matched.
#
# A request that timed out is not tried again: the exit status is then 3 (publish.sh gives
# the store up for the rest of the ninja run). 401, 403, 404 and 507 are not tried again
# either (401 and 403 name WG_HTTP_TOKEN, never its value), and a PUT answered with a
# redirect fails saying where it pointed: a PUT is not redirected.
#
# Content-Type by name: .html text/html, index.json application/vnd.pypi.simple.v1+json
# (PEP 691), .metadata text/plain, wheels.json application/json, find.py text/plain (a browser
# shows the finder before anyone runs it), anything else application/octet-stream. Names are
# percent-encoded ('+' as %2B).
#
# Credentials: WG_HTTP_TOKEN (sent as "Authorization: Bearer ...") or ~/.netrc; the token is
# handed to curl in a private file (publish-lib.sh's wg_auth), never on a command line, and
# never printed.
# --dry-run prints what it would send, and sends nothing.
set -eu
# shellcheck source=templates/voice.sh
. "$(dirname "$0")/voice.sh"
wg_voice http

usage() {
    printf 'usage: sh templates/publish-http.sh [--dry-run] [--retries N] [--timeout S] [--stall S] [--tmp-dir REL] [--no-replace] [--prefix REL] URL FILE...\n       sh templates/publish-http.sh [--dry-run] [--retries N] [--timeout S] [--stall S] [--state FILE] --tree DIR URL\n       sh templates/publish-http.sh [--timeout S] [--stall S] --cat NAME URL\n       sh templates/publish-http.sh [--timeout S] [--stall S] --size NAME URL\n' >&2
    exit 2
}
dry=0
tries=3
tree=
state=
cat=
size=
prefix=
tmpdir=
noreplace=0
timeout=1800
stall=60
while [ "$#" -gt 0 ]; do
    case $1 in
        --dry-run) dry=1 ;;
        --no-replace) noreplace=1 ;;
        --retries | --tree | --state | --cat | --size | --prefix | --tmp-dir | --timeout | --stall)
            [ "$#" -ge 2 ] || usage
            case $1 in
                --retries) tries=$2 ;;
                --tree) tree=$2 ;;
                --state) state=$2 ;;
                --cat) cat=$2 ;;
                --size) size=$2 ;;
                --prefix) prefix=${2%/}/ ;;
                --tmp-dir) tmpdir=${2%/}/ ;;
                --timeout) timeout=$2 ;;
                --stall) stall=$2 ;;
            esac
            shift
            ;;
        -*) usage ;;
        *) break ;;
    esac
    shift
done
for n in "$tries" "$timeout" "$stall"; do
    case $n in
        '' | *[!0-9]* | 0) usage ;;
    esac
done
[ "$#" -ge 1 ] || usage
url=$1
shift
case $url in
    http://* | https://*) ;;
    *) wg_fail 2 'not an http:// or https:// URL: %s' "$url" ;;
esac
case $url in
    */) ;;
    *) url=$url/ ;;
esac
# shellcheck source=templates/publish-lib.sh
. "$(dirname "$0")/publish-lib.sh"
[ -n "$cat$size" ] || wg_pub_operands http "$tree" "$#"
wg_pub_rel --tmp-dir "$tmpdir"
command -v curl >/dev/null 2>&1 || wg_fail 1 'curl is needed (apt-get install curl)'

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgpubhttp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# the credentials, in a file only we can read (wg_auth); never an argument
wg_auth "$tmp/headers" WG_HTTP_TOKEN ||
    wg_fail 1 'the token in WG_HTTP_TOKEN holds a blank or a control character'

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
        wheels.json) echo 'application/json' ;;
        find.py) echo 'text/plain; charset=utf-8' ;;
        *.metadata) echo 'text/plain; charset=utf-8' ;;
        *) echo 'application/octet-stream' ;;
    esac
}

sha() { sha256sum "$1" | cut -d' ' -f1; }

# hcurl ARGS...: curl with the credentials and the time limits
hcurl() {
    wg_curl "$tmp/headers" -sS --netrc-optional --connect-timeout 10 --max-time "$timeout" \
        --speed-limit 1024 --speed-time "$stall" "$@"
}

if [ -n "$cat" ]; then
    wg_code=$(hcurl -o "$tmp/cat" -w '%{http_code}' "$url$(enc "$cat")" 2>"$tmp/err") ||
        wg_fail 1 'GET %s: %s' "$url$(enc "$cat")" "$(tail -n 1 "$tmp/err")"
    case $wg_code in
        200) cat "$tmp/cat" ;;
        404 | 410) ;;
        *) wg_fail 1 'GET %s: HTTP status %s' "$url$(enc "$cat")" "$wg_code" ;;
    esac
    exit 0
fi
if [ -n "$size" ]; then
    wg_code=$(hcurl -I -o /dev/null -w '%{http_code} %header{content-length}' "$url$(enc "$size")" 2>"$tmp/err") ||
        wg_fail 1 'HEAD %s: %s' "$url$(enc "$size")" "$(tail -n 1 "$tmp/err")"
    case ${wg_code%% *} in
        200) printf '%s\n' "${wg_code#* }" ;;
        404 | 410) ;;
        *) wg_fail 1 'HEAD %s: HTTP status %s' "$url$(enc "$size")" "${wg_code%% *}" ;;
    esac
    exit 0
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
        wg_say 'dry-run: PUT %s (%s bytes, sha256 %s, %s)' "$wg_to" "$(wc -c <"$1" | tr -d ' ')" "$wg_sha" "$wg_ct"
        return 0
    fi
    wg_try=1
    wg_sleep=${WG_RETRY_SLEEP:-2}
    while :; do
        wg_why=
        # through a temporary name (NAME.tmp.<pid>-<random>, beside it or under --tmp-dir), moved
        # into place (WebDAV MOVE)
        if [ -n "$tmpdir" ]; then
            wg_tmpto=$url$(enc "$tmpdir${2##*/}.tmp.$$-$salt")
        else
            wg_tmpto=$url$(enc "$2.tmp.$$-$salt")
        fi
        wg_at=$wg_tmpto
        [ "$nomove" = 0 ] || wg_at=$wg_to
        # (a PUT at the name itself that must not replace: If-None-Match: *, as S3 takes it)
        wg_inm='X-Wheelgen-Put: 1'
        [ "$nomove" = 0 ] || [ "$noreplace" = 0 ] || wg_inm='If-None-Match: *'
        wg_rc=0
        wg_code=$(hcurl -H "Content-Type: $wg_ct" -H "$wg_inm" -T "$1" -o /dev/null -w '%{http_code} %{redirect_url}' "$wg_at" 2>"$tmp/err") || wg_rc=$?
        if [ "$wg_rc" = 28 ]; then
            # a store that did not answer in time is given up on, not tried again (status 3)
            wg_fail 3 '%s: PUT failed: %s (--timeout %s s, --stall %s s)' "$wg_to" "$(tail -n 1 "$tmp/err")" "$timeout" "$stall"
        elif [ "$wg_rc" != 0 ]; then
            wg_why="PUT failed: $(tail -n 1 "$tmp/err")"
        else
            case ${wg_code%% *} in
                2??) ;;
                412)
                    # (--no-replace, no MOVE: the name is taken)
                    wg_fail 4 '%s is there already: not replaced' "$wg_to"
                    ;;
                3??)
                    wg_fail 1 '%s: the store answered the PUT with HTTP %s, a redirect to %s: a PUT is not redirected (publish.http must name the store itself)' \
                        "$wg_to" "${wg_code%% *}" "${wg_code#* }"
                    ;;
                401 | 403)
                    wg_fail 1 '%s: PUT: HTTP %s: the store refused %s (not tried again)' "$wg_to" "${wg_code%% *}" \
                        "$([ -n "${WG_HTTP_TOKEN:+x}" ] && echo 'the token in WG_HTTP_TOKEN: may it write there?' || echo 'a request without a token: set WG_HTTP_TOKEN (or a ~/.netrc entry)')"
                    ;;
                404 | 507)
                    wg_fail 1 '%s: PUT: HTTP %s%s (not tried again)' "$wg_to" "${wg_code%% *}" \
                        "$([ "${wg_code%% *}" = 507 ] && echo ': the store has no room' || echo ': no such place on the store')"
                    ;;
                *) wg_why="PUT failed: HTTP ${wg_code%% *}" ;;
            esac
        fi
        if [ -n "$wg_why" ]; then
            :
        elif ! hcurl -f -o "$tmp/back" "$wg_at" 2>"$tmp/err"; then
            wg_why="reading it back failed: $(tail -n 1 "$tmp/err")"
        elif [ "$(sha "$tmp/back")" != "$wg_sha" ]; then
            wg_why="read back sha256 $(sha "$tmp/back"), sent $wg_sha"
        elif [ "$nomove" = 0 ]; then
            wg_ow=T
            [ "$noreplace" = 0 ] || wg_ow=F
            wg_mv=$(hcurl -X MOVE -H "Destination: $wg_to" -H "Overwrite: $wg_ow" -o /dev/null -w '%{http_code}' \
                "$wg_tmpto" 2>"$tmp/err") || wg_mv=000
            case $wg_mv in
                2??) ;;
                412)
                    hcurl -X DELETE -o /dev/null "$wg_tmpto" 2>/dev/null || true
                    wg_fail 4 '%s is there already: not replaced' "$wg_to"
                    ;;
                405 | 501 | 400)
                    # no MOVE here: PUT at the name itself (its PUT replaces the file whole)
                    wg_say '%s does not move files (MOVE: HTTP %s): PUT at the name' "$url" "$wg_mv" >&2
                    hcurl -X DELETE -o /dev/null "$wg_tmpto" 2>/dev/null || true
                    nomove=1
                    continue
                    ;;
                *) wg_why="MOVE to $wg_to failed: HTTP $wg_mv $(tail -n 1 "$tmp/err")" ;;
            esac
        fi
        if [ -z "$wg_why" ]; then
            wg_say '%s' "$wg_to"
            if [ -n "$state" ]; then
                printf '%s %s\n' "$wg_sha" "$2" >>"$state"
            fi
            return 0
        fi
        if [ "$wg_try" -ge "$tries" ]; then
            wg_fail 1 '%s: %s (tried %s times)' "$wg_to" "$wg_why" "$wg_try"
        fi
        wg_say '%s: %s; trying again in %s s' "$wg_to" "$wg_why" "$wg_sleep" >&2
        sleep "$wg_sleep"
        wg_try=$((wg_try + 1))
        wg_sleep=$((wg_sleep * 2))
    done
}

nomove=0
# (temporaries of two machines' publishers whose pids are alike differ)
salt=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
if [ -z "$tree" ]; then
    wg_pub_files http "$prefix" "$@"
    exit 0
fi
wg_pub_tree "$tree" "$tmp/list"
