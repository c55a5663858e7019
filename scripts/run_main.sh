#!/usr/bin/env bash
# The main job behind `make run`: rewind-lab on the given scenario; exits non-zero when a checklist item fails.
set -euo pipefail
build=$1; shift
if [ ! -x "$build/apps/rewind-lab" ]; then
  echo "run_main.sh: $build/apps/rewind-lab is not built" >&2
  exit 1
fi
exec "$build/apps/rewind-lab" "$@"
