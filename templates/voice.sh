# voice.sh: the one voice of the scripts under templates/, as util.c is the C side's. A message
# is "wheelgen: ", the script's context when it set one ("http: ", "publish CELL: "), and the
# text. This file alone spells that prefix, and no script defines a say or die of its own
# (tests/t0000 holds both). Every script that speaks sources it first, before step-lib.sh or
# publish-lib.sh, which speak through it; it defines functions and wg_ctx only.
#
#   wg_voice [CONTEXT]              messages from now on read "wheelgen: CONTEXT: TEXT" (none: "wheelgen: TEXT")
#   wg_say FORMAT [ARG...]          printf's FORMAT with ARGs after the prefix, and a newline (stdout)
#   wg_warn FORMAT [ARG...]         wg_say with "warning: " before FORMAT
#   wg_fail STATUS FORMAT [ARG...]  wg_say on stderr, then exit STATUS
#   wg_die MESSAGE...               runs wg_die_hook (a step's report on any failure: build-host.sh's
#                                   peak memory) once, says MESSAGE (words, not a format) on stderr, exit 1
#   wg_say_lines TEXT               says each line of stdin, TEXT before it
#   wg_unsay [RE]                   a filter: lines of wheelgen's (a C command's, another script's)
#                                   without the prefix and what the basic regular expression RE
#                                   matches after it (a context), for a script that passes them on

wg_ctx=''

wg_voice() {
    wg_ctx=${1:+$1: }
}

wg_say() {
    wg_vf=$1
    shift
    # shellcheck disable=SC2059 # (the caller's format)
    printf "wheelgen: %s$wg_vf\n" "$wg_ctx" "$@"
}

wg_warn() {
    wg_vf=$1
    shift
    # shellcheck disable=SC2059 # (the caller's format)
    printf "wheelgen: %swarning: $wg_vf\n" "$wg_ctx" "$@"
}

wg_fail() {
    wg_vst=$1
    shift
    wg_say "$@" >&2
    exit "$wg_vst"
}

wg_die() {
    if [ -n "${wg_die_hook:-}" ]; then
        wg_vh=$wg_die_hook
        wg_die_hook=''
        "$wg_vh"
    fi
    wg_fail 1 '%s' "$*"
}

wg_say_lines() {
    while IFS= read -r wg_vl || [ -n "$wg_vl" ]; do
        wg_say '%s%s' "$1" "$wg_vl"
    done
}

wg_unsay() {
    sed "s/^wheelgen: ${1:-}//"
}
