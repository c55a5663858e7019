#!/usr/bin/env bash
# Formatting is a check: every tracked C++ file must match the project's .clang-format. Names the files that
# differ and how to fix them; exit 1 if any does, 77 if clang-format is missing. Run by `make format-check`
# (first in `make test`) and by CTest (format_check).
#
#   scripts/format_check.sh [SOURCE_DIR]
set -euo pipefail

root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"
clang_format="${CLANG_FORMAT:-clang-format}"
if ! command -v "$clang_format" >/dev/null; then
  echo "format-check: $clang_format is missing (scripts/setup.sh installs it)" >&2
  exit 77
fi

mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp')
if [ ${#files[@]} -eq 0 ]; then
  echo "format-check: no C++ files found (not a git checkout?)" >&2
  exit 77
fi

# One clang-format run for all files; each difference is reported as "file:line:col: error: ...".
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if "$clang_format" --dry-run -Werror "${files[@]}" 2>"$log"; then
  echo "format-check: OK (${#files[@]} files match .clang-format)"
  exit 0
fi

mapfile -t differ < <(grep -oE '^[^:]+:[0-9]+:[0-9]+: error' "$log" | cut -d: -f1 | sort -u)
if [ ${#differ[@]} -eq 0 ]; then
  cat "$log" >&2
  echo "format-check: $clang_format failed" >&2
  exit 1
fi
echo "format-check: ${#differ[@]} file(s) differ from .clang-format ($("$clang_format" --version | head -1)):"
printf '  %s\n' "${differ[@]}"
echo "fix: make format   (or: clang-format -i FILE...), then review and commit the change"
exit 1
