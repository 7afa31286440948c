#!/usr/bin/env bash
# The only proof that the README works: clone the committed HEAD into a new directory, make a new
# venv there (the Makefile's), and run both README commands. Usage: scripts/fresh_clone.sh [DIR]
# (default: a new temporary directory). CONSTRAINTS= (empty) tests against the newest versions.
# Exits with the first failing command's status; prints the tail of each log.
set -uo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$(mktemp -d)/relu-verify}"
git clone -q "$src" "$dir" || exit 2
[[ -d "$src/../shared" && ! -e "$dir/../shared" ]] && ln -s "$src/../shared" "$dir/../shared"
cd "$dir" || exit 2
logs="$(dirname "$dir")"  # the logs stay outside the clone, so the final status check sees only what make did
echo "fresh clone of $(git rev-parse --short HEAD) in $dir"
for target in check test; do
  start=$(date +%s)
  make "$target" ${CONSTRAINTS+CONSTRAINTS="$CONSTRAINTS"} > "$logs/make-$target.log" 2>&1
  status=$?
  echo "make $target: exit $status in $(( $(date +%s) - start )) s"
  tail -n 4 "$logs/make-$target.log"
  [[ $status -eq 0 ]] || exit $status
done
if [[ -n "$(git status --porcelain)" ]]; then
  echo "the README commands changed tracked files:"; git status --short; exit 1
fi
