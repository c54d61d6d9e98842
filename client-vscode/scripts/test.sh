#!/usr/bin/env bash
# Everything the VS Code extension is checked with, in order: npm packages,
# compile (tsc + esbuild), lint (eslint), unit tests (node:test), the .vsix,
# then the end-to-end test in a real VS Code (code-server in headless
# Chromium, tests/e2e/run.mjs) against the real Cairn server.
#
#   CAIRN_PYTHON   interpreter with cairn installed (default: <repo>/.venv/bin/python);
#                  the server is the `cairn` executable beside it
#   CAIRN_E2E_CACHE  where Node.js 24 and code-server are kept (default ~/.cache/cairn-e2e)
#   CAIRN_E2E_KEEP=1 keep the test's work folder (its path is printed)
#   CAIRN_E2E_UPDATE_IMAGES=1 refresh docs/images/ from this run's screenshots
#
# A fresh machine needs root (or sudo) once, for Debian's chromium and the
# build headers; later runs install nothing. Every process started here is
# stopped on exit, also on Ctrl+C or a failure.
set -euo pipefail

client=$(cd "$(dirname "$0")/.." && pwd)
repo=$(dirname "$client")
e2e="$repo/tests/e2e"
CAIRN_PYTHON=${CAIRN_PYTHON:-$repo/.venv/bin/python}
cairn="$(dirname "$CAIRN_PYTHON")/cairn"

t_start=$(date +%s)
phase_start=$t_start
phase() {
  local now
  now=$(date +%s)
  [ -n "${phase_name:-}" ] && echo "== $phase_name: $((now - phase_start))s"
  phase_name=$1
  phase_start=$now
  echo "== $1"
}

if [ ! -x "$CAIRN_PYTHON" ] || [ ! -x "$cairn" ]; then
  echo "test.sh: CAIRN_PYTHON=$CAIRN_PYTHON must be an interpreter with cairn installed (and $cairn beside it)" >&2
  exit 2
fi

# The e2e driver writes the process groups it starts here; the trap ends any
# that are still alive, whatever way this script ends.
run_dir=$(mktemp -d "${TMPDIR:-/tmp}/cairn-test.XXXXXX")
export CAIRN_E2E_PIDFILE="$run_dir/pgids"
driver_pid=
cleanup() {
  local status=$?
  if [ -n "$driver_pid" ] && kill -0 "$driver_pid" 2>/dev/null; then
    kill -TERM "$driver_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$driver_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$driver_pid" 2>/dev/null || true
  fi
  if [ -f "$CAIRN_E2E_PIDFILE" ]; then
    while read -r pgid; do
      [ -n "$pgid" ] && kill -KILL -- "-$pgid" 2>/dev/null || true
    done < "$CAIRN_E2E_PIDFILE"
  fi
  rm -rf "$run_dir"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

phase "tools: Debian packages, Node.js 24, code-server"
eval "$("$e2e/install.sh")"
export PATH="$NODE24_BIN:$PATH"
echo "node $(node --version), npm $(npm --version), code-server: $CODE_SERVER"

# shellcheck source=npm-deps.sh
source "$client/scripts/npm-deps.sh"
phase "npm packages"
ensure_node_modules "$client"
ensure_node_modules "$e2e"

cd "$client"
phase "compile"
npm run --silent compile
phase "lint"
npm run --silent lint
phase "unit tests"
npm test --silent
phase "package"
bash scripts/package.sh

phase "end-to-end test in code-server"
CODE_SERVER="$CODE_SERVER" CAIRN_PYTHON="$CAIRN_PYTHON" VSIX="$client/cairn.vsix" node "$e2e/run.mjs" &
driver_pid=$!
wait "$driver_pid"
driver_pid=
phase "done"
echo "test.sh: all passed in $(( $(date +%s) - t_start ))s"
