#!/usr/bin/env bash
# Builds client-vscode/cairn.vsix: installs the npm packages when the lock
# file changed, bundles the extension with esbuild (vsce runs
# vscode:prepublish) and packages it with @vscode/vsce.
# Needs Node.js 20 or newer on PATH. Called by `make package` and scripts/test.sh.
set -euo pipefail
# checked first, with builtins only: a missing or old Node.js is named, not a stack of npm errors
node_major=$( { command -v node >/dev/null && node -p 'process.versions.node.split(".")[0]'; } 2>/dev/null || echo 0)
if [ "${node_major:-0}" -lt 20 ] || ! command -v npm >/dev/null; then
  echo "make package needs Node.js 20 or newer, with npm, on PATH (found: $( (command -v node >/dev/null && node --version) 2>/dev/null || echo none))." >&2
  echo "Install it from https://nodejs.org or your package manager; the Python side (make demo, make test-python) does not need it." >&2
  exit 2
fi
cd "$(dirname "$0")/.."
here=$(pwd)
repo=$(cd .. && pwd)

# shellcheck source=scripts/npm-deps.sh
source scripts/npm-deps.sh
ensure_node_modules "$here"

# The Marketplace README shows the screenshots that the end-to-end test saves
# under docs/images/; inside the .vsix they live in images/screenshots/.
rm -rf .package images/screenshots
mkdir -p .package images/screenshots
for shot in "$repo"/docs/images/*.png; do
  [ -e "$shot" ] && cp "$shot" images/screenshots/
done
sed 's#\.\./docs/images/#images/screenshots/#g' README.md > .package/README.md

npx --no-install vsce package \
  --no-dependencies \
  --allow-missing-repository \
  --no-rewrite-relative-links \
  --readme-path .package/README.md \
  --out cairn.vsix
rm -rf .package
echo "packaged $here/cairn.vsix"
