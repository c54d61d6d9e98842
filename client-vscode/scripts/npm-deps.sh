# Sourced by package.sh and test.sh: `npm ci` only when package-lock.json
# changed since the last install (the lock file's hash is kept in node_modules).
ensure_node_modules() {
  local dir=$1 stamp want
  stamp="$dir/node_modules/.cairn-lock-sha256"
  want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return 0
  fi
  echo "npm ci in $dir"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$want" > "$stamp"
}
