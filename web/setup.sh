#!/usr/bin/env bash
# The web build's JavaScript dependencies: npm (only if missing: Debian's npm conflicts with a NodeSource
# nodejs, which brings its own) and web/node_modules from package-lock.json (npm ci, only when it changed).
set -euo pipefail

web="$(cd "$(dirname "$0")" && pwd)"
if ! command -v npm >/dev/null; then
  echo "setup-web: installing npm"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
stamp="$web/node_modules/.package-lock.json"
if [ ! -f "$stamp" ] || [ "$web/package-lock.json" -nt "$stamp" ]; then
  echo "setup-web: npm ci in web/"
  (cd "$web" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
