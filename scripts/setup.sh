#!/usr/bin/env bash
# Installs every Debian package rewind's build, tests and programs need; idempotent and quiet when all is present.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git python3 time
  clang libclang-rt-14-dev clang-19 libclang-rt-19-dev clang-format clang-tidy
  libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev
  libxxhash-dev libenet-dev libsodium-dev nlohmann-json3-dev libcli11-dev
  libsdl2-dev libimgui-dev libstb-dev libcairo2-dev
  libcpp-httplib-dev libboost-dev emscripten
  xvfb xauth chromium prometheus
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
