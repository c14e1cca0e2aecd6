#!/usr/bin/env bash
# Runs `pnpm test` on fresh clones of HEAD, RUNS times in a row (default 10), each while a
# CPU-bound process runs beside it, as a newcomer's busy two-core machine would. Prints one line
# per run and a closing count; exits 1 when any run failed. Logs stay in $SOAK_DIR (printed).
#
#   bash scripts/test/soak.sh [RUNS]
set -uo pipefail
runs="${1:-10}"
top="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
dir="${SOAK_DIR:-$(mktemp -d -t interlingua-soak.XXXXXX)}"
export CI="${CI:-1}"
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
# Every run tests the commit HEAD was at the start, even if the checkout moves on meanwhile.
commit="$(git -C "$top" rev-parse HEAD)"
echo "soak: $runs runs of pnpm test on fresh clones of ${commit:0:7}, logs in $dir"

passed=0
failed=0
for i in $(seq 1 "$runs"); do
  clone="$dir/run-$i"
  rm -rf "$clone"
  git clone --quiet --no-hardlinks "$top" "$clone"
  git -C "$clone" checkout --quiet --detach "$commit"
  # The neighbour: one core kept busy for the whole run.
  node -e 'for (;;) {}' &
  hog=$!
  started=$(date +%s)
  if (cd "$clone" && pnpm install --frozen-lockfile --prefer-offline && pnpm test) >"$dir/run-$i.log" 2>&1; then
    result=passed
    passed=$((passed + 1))
  else
    result=FAILED
    failed=$((failed + 1))
  fi
  kill "$hog" 2>/dev/null
  wait "$hog" 2>/dev/null
  echo "run $i: $result in $(($(date +%s) - started)) s ($dir/run-$i.log)"
  [ "$result" = passed ] && rm -rf "$clone"
done
echo "soak: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
