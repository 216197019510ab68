#!/bin/sh
# .github/free-disk.sh: the build jobs' first step after the checkout. A GitHub-hosted runner
# ships gigabytes that no wheel build needs; like other wheel farms (mjun0812's flash-attention
# builds, jlumbroso/free-disk-space, easimon/maximize-build-space) this removes .NET
# (/usr/share/dotnet), the Android SDK (/usr/local/lib/android), GHC (/opt/ghc), CodeQL's bundles
# (/opt/hostedtoolcache/CodeQL) and the docker images the runner caches (the build pulls its own
# image afterwards), and prints the free space of / before and after. Anywhere else (a
# self-hosted runner, act on a workstation: RUNNER_ENVIRONMENT is not github-hosted) it removes
# nothing and says so. It never fails the job.
set -u

# the free space of /: for people (df -h) and in KiB
free_h() { df -h / | awk 'NR == 2 { print $4 }'; }
free_k() { df -Pk / | awk 'NR == 2 { print $4 }'; }

before=$(free_k)
echo "free-disk: $(free_h) free on / before"
if [ "${RUNNER_ENVIRONMENT:-}" = github-hosted ]; then
	for d in /usr/share/dotnet /usr/local/lib/android /opt/ghc /opt/hostedtoolcache/CodeQL; do
		[ -e "$d" ] || continue
		sudo rm -rf "$d" || echo "free-disk: could not remove $d"
	done
	docker image prune --all --force >/dev/null 2>&1 || echo "free-disk: docker image prune failed"
else
	echo "free-disk: not a GitHub-hosted runner (RUNNER_ENVIRONMENT='${RUNNER_ENVIRONMENT:-}'): nothing removed"
fi
after=$(free_k)
echo "free-disk: $(free_h) free on / after ($(((after - before) / 1048576)) GiB freed)"
exit 0
