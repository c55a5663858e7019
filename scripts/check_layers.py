#!/usr/bin/env python3
"""The layer check: public headers, includes against links, internal headers, file length.

    scripts/check_layers.py BUILD_DIR/layer_graph.json [--root SOURCE_DIR]

The graph is written by CMake at configure time (cmake/RewindLayerGraph.cmake): every target's sources, include
directories and the rewind layers it links, transitively, from its real LINK_LIBRARIES. Each violation is printed
as `path:line: error: ...`; the exit code is 1 if there is any, 0 if none, 2 if the graph cannot be read.

  a. A public header (include/rewind/<layer>/) includes only its own layer or lower ones (core < wire <
     transport < sync < session), only layers its module links, and nothing private (src/, another module's
     detail/).
  b. A target includes only the rewind layers it links (the include graph is followed through the target's own
     headers, e.g. a game header included by a test).
  c. game/, apps/, bench/ and tests/ use public headers only: nothing under include/rewind/**/detail/ and no
     private header (src/<module>/, game/src/), except that tests/unit/<module>/ may include its own module's
     private headers.
  d. No C++ file in include/, src/, game/, apps/, tests/ or bench/ is over 500 lines.
"""

import argparse
import json
import os
import re
import subprocess
import sys

# The layers in DESIGN.md's order: a layer may include itself and the layers before it.
LAYERS = ["core", "wire", "transport", "sync", "session"]
MAX_LINES = 500
CPP_SUFFIXES = (".cpp", ".hpp", ".h", ".cc", ".hh", ".ipp")
CHECKED_TREES = ("include", "src", "game", "apps", "tests", "bench")
USER_TREES = ("game", "apps", "bench", "tests")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


class Checker:
    """Runs the four checks over one source tree and collects violations."""

    def __init__(self, root, graph):
        self.root = os.path.realpath(root)
        self.graph = graph
        self.violations = {}  # (path, line, message) -> set of target names (empty for file checks)
        self._includes = {}

    # --- paths -------------------------------------------------------------------------------------------------
    def rel(self, path):
        return os.path.relpath(path, self.root)

    def inside(self, path):
        return path.startswith(self.root + os.sep)

    def parts(self, path):
        return self.rel(path).split(os.sep)

    def public_layer(self, path):
        """The layer of a public header (include/rewind/<layer>/...), else None."""
        p = self.parts(path)
        if len(p) >= 4 and p[0] == "include" and p[1] == "rewind" and p[2] in LAYERS:
            return p[2]
        return None

    def is_detail(self, path):
        p = self.parts(path)
        return p[:2] == ["include", "rewind"] and "detail" in p[2:-1]

    def private_owner(self, path):
        """The module whose private header this is (src/<module>/..., or game/src/ for "arena"), else None."""
        p = self.parts(path)
        if len(p) >= 3 and p[0] == "src":
            return p[1]
        if len(p) >= 3 and p[0] == "game" and p[1] == "src":
            return "arena"
        return None

    def test_module(self, path):
        """<module> for a file under tests/unit/<module>/, else None."""
        p = self.parts(path)
        if len(p) >= 4 and p[0] == "tests" and p[1] == "unit":
            return p[2]
        return None

    # --- includes ----------------------------------------------------------------------------------------------
    def includes(self, path):
        """[(line number, kind '<' or '"', spelled name)] of a file's #include lines (block comments skipped)."""
        if path not in self._includes:
            found = []
            in_comment = False
            with open(path, encoding="utf-8", errors="replace") as f:
                for n, line in enumerate(f, 1):
                    if in_comment:
                        if "*/" not in line:
                            continue
                        line = line.split("*/", 1)[1]
                        in_comment = False
                    if line.lstrip().startswith("/*") and "*/" not in line:
                        in_comment = True
                        continue
                    m = INCLUDE_RE.match(line)
                    if m:
                        found.append((n, m.group(1), m.group(2)))
            self._includes[path] = found
        return self._includes[path]

    def resolve(self, including, kind, name, include_dirs):
        """The file an include names, as the compiler would find it (quotes first look beside the includer)."""
        dirs = ([os.path.dirname(including)] if kind == '"' else []) + include_dirs
        for d in dirs:
            candidate = os.path.realpath(os.path.join(d, name))
            if os.path.isfile(candidate):
                return candidate
        return None

    def report(self, path, line, message, target=None):
        key = (self.rel(path), line, message)
        self.violations.setdefault(key, set())
        if target:
            self.violations[key].add(target)

    # --- check c: what a file may include, wherever it is compiled ---------------------------------------------
    def check_visibility(self, path, line, name, dest, target=None):
        src_parts = self.parts(path)
        user = src_parts[0] in USER_TREES
        owner = self.private_owner(dest)
        if owner is not None:
            own_tree = self.private_owner(path) == owner or self.test_module(path) == owner
            if not own_tree:
                self.report(path, line, f"includes private header {self.rel(dest)} of module '{owner}' "
                            f"(only src/{owner}/ and tests/unit/{owner}/ may; use the public API)", target)
        elif self.is_detail(dest):
            if user:
                self.report(path, line, f"includes internal header {self.rel(dest)} (detail/ is not API: "
                            "expose what is needed in a public header)", target)
            elif self.public_layer(path) and self.public_layer(path) != self.public_layer(dest):
                self.report(path, line, f"includes another module's internal header {self.rel(dest)}", target)

    # --- check a -----------------------------------------------------------------------------------------------
    def check_public_headers(self, module_links, include_root):
        base = os.path.join(self.root, "include", "rewind")
        for dirpath, _, files in os.walk(base):
            for fn in sorted(files):
                path = os.path.realpath(os.path.join(dirpath, fn))
                if not fn.endswith(CPP_SUFFIXES):
                    continue
                layer = self.public_layer(path)
                for line, kind, name in self.includes(path):
                    dest = self.resolve(path, kind, name, [include_root])
                    if dest is None:
                        # Not found under include/: a private header spelled relative to src/ is still private.
                        if self.inside(os.path.realpath(os.path.join(self.root, "src", name))) and \
                                os.path.isfile(os.path.join(self.root, "src", name)):
                            self.report(path, line, f"public header includes private header src/{name}")
                        continue
                    if not self.inside(dest):
                        continue
                    if not self.parts(dest)[:1] == ["include"]:
                        self.report(path, line, f"public header includes {self.rel(dest)}, which is not public")
                        continue
                    dest_layer = self.public_layer(dest)
                    if layer is None or dest_layer is None:
                        continue  # the umbrella header rewind/rewind.hpp includes every layer
                    if LAYERS.index(dest_layer) > LAYERS.index(layer):
                        self.report(path, line, f"layer '{layer}' includes higher layer '{dest_layer}' "
                                    f"({self.rel(dest)}); order: {' < '.join(LAYERS)}")
                    elif layer in module_links and dest_layer not in module_links[layer]:
                        self.report(path, line, f"layer '{layer}' includes '{dest_layer}' ({self.rel(dest)}) "
                                    f"but rewind_{layer} does not link rewind_{dest_layer}")
                    self.check_visibility(path, line, name, dest)

    # --- check b (and c) per target ----------------------------------------------------------------------------
    def check_target(self, t):
        include_dirs = [d for d in t.get("include_dirs", []) if d]
        linked = set(t.get("layers", []))
        name = t["name"]
        todo = [os.path.realpath(s) for s in t.get("sources", []) if self.inside(os.path.realpath(s))]
        seen = set(todo)
        while todo:
            path = todo.pop()
            if not os.path.isfile(path):
                continue
            for line, kind, spelled in self.includes(path):
                dest = self.resolve(path, kind, spelled, include_dirs)
                if dest is None or not self.inside(dest):
                    continue
                self.check_visibility(path, line, spelled, dest, name)
                layer = self.public_layer(dest)
                if layer is not None:
                    if layer not in linked:
                        have = ", ".join(l for l in LAYERS if l in linked) or "no rewind layer"
                        self.report(path, line, f"includes <{spelled}> (layer '{layer}') but the target does "
                                    f"not link rewind::{layer} (it links {have})", name)
                    continue  # public headers are checked once, by check a
                if self.parts(dest)[:2] == ["include", "rewind"]:
                    # The umbrella header rewind/rewind.hpp brings every layer: rewind::rewind links them all.
                    missing = [l for l in LAYERS if l not in linked]
                    if missing:
                        self.report(path, line, f"includes <{spelled}> (every layer) but the target does not "
                                    f"link {', '.join('rewind::' + m for m in missing)} (link rewind::rewind)", name)
                    continue
                if dest not in seen:
                    seen.add(dest)
                    todo.append(dest)

    # --- check c for files no configured target compiles (fuzz targets, the consumer project, ...) -------------
    def check_unbuilt(self, files, covered):
        generic = [os.path.join(self.root, d) for d in ("include", "game/include", "src", "tests", "apps")]
        for path in files:
            if path in covered or self.parts(path)[0] not in USER_TREES:
                continue
            for line, kind, spelled in self.includes(path):
                dest = self.resolve(path, kind, spelled, generic)
                if dest is not None and self.inside(dest):
                    self.check_visibility(path, line, spelled, dest)

    # --- check d -----------------------------------------------------------------------------------------------
    def check_lengths(self, files):
        for path in files:
            with open(path, encoding="utf-8", errors="replace") as f:
                count = sum(1 for _ in f)
            if count > MAX_LINES:
                self.report(path, MAX_LINES + 1, f"file has {count} lines (at most {MAX_LINES}: split it by concept)")

    # --- all ---------------------------------------------------------------------------------------------------
    def run(self):
        targets = self.graph.get("targets", [])
        module_links = {}
        for t in targets:
            if t["name"].startswith("rewind_") and t["name"][len("rewind_"):] in LAYERS:
                layer = t["name"][len("rewind_"):]
                module_links[layer] = set(t.get("layers", [])) | {layer}
                for higher in t.get("layers", []):
                    if higher in LAYERS and LAYERS.index(higher) > LAYERS.index(layer):
                        self.report(os.path.join(self.root, "CMakeLists.txt"), 1,
                                    f"rewind_{layer} links higher layer rewind_{higher}")
        self.check_public_headers(module_links, os.path.join(self.root, "include"))
        covered = set()
        for t in targets:
            self.check_target(t)
            covered.update(os.path.realpath(s) for s in t.get("sources", []))
        files = self.cpp_files()
        self.check_unbuilt(files, covered)
        self.check_lengths(files)
        return self.violations

    def cpp_files(self):
        """Every C++ file of the checked trees: git's list in a checkout, else a walk of the folders."""
        try:
            out = subprocess.run(["git", "-C", self.root, "ls-files", "--cached", "--others", "--exclude-standard"]
                                 + list(CHECKED_TREES), capture_output=True, text=True, check=True).stdout
            names = [n for n in out.splitlines() if n]
        except (OSError, subprocess.CalledProcessError):
            names = []
            for tree in CHECKED_TREES:
                for dirpath, _, files in os.walk(os.path.join(self.root, tree)):
                    names += [self.rel(os.path.join(dirpath, f)) for f in files]
        paths = [os.path.realpath(os.path.join(self.root, n)) for n in names if n.endswith(CPP_SUFFIXES)]
        return sorted(p for p in paths if os.path.isfile(p))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("graph", help="layer_graph.json written by CMake in the build folder")
    ap.add_argument("--root", help="source tree (default: the graph's source_dir)")
    args = ap.parse_args(argv)
    try:
        with open(args.graph, encoding="utf-8") as f:
            graph = json.load(f)
    except (OSError, ValueError) as e:
        print(f"layers: cannot read {args.graph}: {e} (configure the build first)", file=sys.stderr)
        return 2
    checker = Checker(args.root or graph["source_dir"], graph)
    violations = checker.run()
    for (path, line, message), targets in sorted(violations.items()):
        suffix = f" [target {', '.join(sorted(targets))}]" if targets else ""
        print(f"{path}:{line}: error: {message}{suffix}")
    files = len(checker.cpp_files())
    if violations:
        print(f"layers: {len(violations)} violation(s) in {files} files and {len(graph['targets'])} targets "
              "(rules: scripts/check_layers.py, docs/ARCHITECTURE.md)")
        return 1
    print(f"layers: OK ({files} files, {len(graph['targets'])} targets)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
