# publish-lib.sh: what the publishers share; sourced by publish-dir.sh, publish-http.sh,
# publish-github.sh and upstream-pr.sh, after voice.sh (its messages: wg_fail, wg_die). wg_auth and
# wg_curl are the one place a script builds an Authorization header (tests/t0000 holds that).

# wg_github_py DIR: readies py ARGS..., DIR/github-json.py (JSON and URL helpers, the standard
# library only: -S) run by the interpreter python3 names, asked once: on a pyenv machine
# "python3" is a shell shim that costs more than the helper itself
wg_github_py() {
    wg_py=$(python3 -S -c 'import sys; print(sys.executable)' 2>/dev/null || true)
    [ -n "$wg_py" ] || wg_die "python3 is needed"
    wg_py_json=$1/github-json.py
}
py() { "$wg_py" -S "$wg_py_json" "$@"; }

# wg_auth FILE VAR...: FILE, made private (mode 0600) or emptied, holds "Authorization: Bearer
# TOKEN", TOKEN the value of the first VAR set and not empty in the environment; FILE stays
# empty when none is. awk reads the token from the environment, so that no command line and
# no trace (sh -x) ever holds it. Status 1 when the token holds a blank or a control
# character (a header of its own, smuggled in): FILE empty then. The caller removes FILE
# (with its temporary directory).
wg_auth() {
    wg_auth_file=$1
    shift
    (umask 077 && : >"$wg_auth_file")
    chmod 600 "$wg_auth_file"
    awk 'BEGIN {
        for (i = 1; i < ARGC; i++) {
            t = ENVIRON[ARGV[i]]
            if (t == "") continue
            if (t ~ /[[:cntrl:] ]/) exit 1
            printf "Authorization: Bearer %s\n", t
            exit 0
        }
    }' "$@" >"$wg_auth_file" || { : >"$wg_auth_file"; return 1; }
}

# wg_curl FILE ARGS...: curl (no ~/.curlrc) with the headers of FILE (wg_auth's) and ARGS.
# curl sends FILE's Authorization to the host of the URL only, also through -L: never
# --location-trusted here.
wg_curl() {
    wg_curl_auth=$1
    shift
    curl -q -H @"$wg_curl_auth" "$@"
}

# wg_pub_operands WHO TREE NFILES: with --tree, no FILE operands and TREE a directory; without,
# at least one FILE (usage() otherwise). WHO: the context of its message (wg_voice's)
wg_pub_operands() {
    if [ -n "$2" ]; then
        [ "$3" -eq 0 ] || usage
        [ -d "$2" ] || { wg_voice "$1"; wg_fail 1 '%s is not a directory' "$2"; }
    else
        [ "$3" -ge 1 ] || usage
    fi
}

# wg_pub_rel OPTION VALUE [WHO]: VALUE, OPTION's, a relative path of plain names (not absolute, no
# "..", only letters, digits and ._/-); ends the script otherwise. WHO: the context of its
# message (wg_voice's), when given
wg_pub_rel() {
    case $2 in
        /* | *..* | *[!A-Za-z0-9._/-]*)
            [ -z "${3:-}" ] || wg_voice "$3"
            wg_fail 2 'bad %s: %s' "$1" "$2"
            ;;
    esac
}

# wg_pub_order DIR: DIR's files, relative, in the order to send them: files/ first, then the
# pages, deepest first, so that no page ever names something that is not there yet
wg_pub_order() {
    (cd "$1" && find . -type f ! -name '*.tmp.*' | sed 's|^\./||' |
        awk -F/ '{ print ($1 == "files" ? 1000 : NF) "\t" $0 }' | sort -k1,1nr -k2 | cut -f2-)
}

# wg_pub_files WHO PREFIX FILE...: put (the caller's function: put SRC NAME) each FILE under
# PREFIX (empty, or ending in /) and its name; WHO: the context of a message that ends the script
wg_pub_files() {
    wg_who=$1
    wg_prefix=$2
    shift 2
    wg_pub_rel --prefix "$wg_prefix" "$wg_who"
    for wg_f in "$@"; do
        [ -f "$wg_f" ] || { wg_voice "$wg_who"; wg_fail 1 'no such file: %s' "$wg_f"; }
        put "$wg_f" "$wg_prefix${wg_f##*/}"
    done
}

# wg_pub_tree DIR LIST: put each file of DIR at its path, in wg_pub_order's order (LIST: a scratch file)
wg_pub_tree() {
    wg_pub_order "$1" >"$2"
    while IFS= read -r wg_rel; do
        put "$1/$wg_rel" "$wg_rel"
    done <"$2"
}
