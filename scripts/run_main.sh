#!/usr/bin/env bash
# The main job behind `make run`: the lab's default scenario, or the transport demo until the lab is built.
set -euo pipefail
build=$1; shift
if [ -x "$build/apps/rewind-lab" ]; then
  exec "$build/apps/rewind-lab" "$@"
fi
exec "$build/apps/rewind-netdemo" --profile checklist --duration 60
