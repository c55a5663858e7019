#!/usr/bin/env python3
"""Tests of scripts/check_layers.py on small fixture trees: every rule must catch its violation, by file and line,
and a clean tree must pass, so the layer check cannot pass silently."""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import check_layers  # noqa: E402

LAYERS = check_layers.LAYERS


class FixtureTree:
    """A throwaway source tree plus the layer graph CMake would write for it."""

    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.targets = []

    def write(self, rel, *lines, count=None):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        body = list(lines)
        if count is not None:
            body += ["// filler"] * (count - len(body))
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(body) + "\n")
        return path

    def target(self, name, sources, layers, include_dirs=("include",)):
        self.targets.append({"name": name, "type": "EXECUTABLE", "source_dir": self.root,
                             "layers": list(layers), "links": [],
                             "sources": [os.path.join(self.root, s) for s in sources],
                             "include_dirs": [os.path.join(self.root, d) for d in include_dirs]})

    def module(self, layer):
        """rewind_<layer> linking every lower layer, with one source file."""
        self.write(f"src/{layer}/{layer}.cpp", f"#include <rewind/{layer}/{layer}.hpp>")
        lower = LAYERS[: LAYERS.index(layer) + 1]
        self.target(f"rewind_{layer}", [f"src/{layer}/{layer}.cpp"], lower, ("include", "src"))

    def check(self):
        graph = {"source_dir": self.root, "modules": LAYERS, "targets": self.targets}
        path = os.path.join(self.root, "layer_graph.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(graph, f)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = check_layers.main([path])
        return code, out.getvalue()


def clean_tree(root):
    """Every layer with a public header including the one below, a game, an app and module tests."""
    t = FixtureTree(root)
    for i, layer in enumerate(LAYERS):
        below = [f"#include <rewind/{LAYERS[i - 1]}/{LAYERS[i - 1]}.hpp>"] if i else []
        t.write(f"include/rewind/{layer}/{layer}.hpp", "#pragma once", *below)
        t.module(layer)
    t.write("include/rewind/session/detail/impl.hpp", "#pragma once", "#include <rewind/core/core.hpp>")
    t.write("include/rewind/session/api.hpp", "#pragma once", '#include "detail/impl.hpp"')
    t.write("src/sync/private.hpp", "#pragma once")
    t.write("game/include/g/g.hpp", "#pragma once", "#include <rewind/wire/wire.hpp>")
    t.write("game/src/g.cpp", '#include "g/g.hpp"', "#include <vector>")
    t.target("game", ["game/src/g.cpp"], ["core", "wire"], ("include", "game/include"))
    t.write("apps/a/main.cpp", "#include <rewind/session/api.hpp>", '#include "g/g.hpp"')
    t.target("app", ["apps/a/main.cpp"], LAYERS, ("include", "game/include"))
    t.write("tests/unit/sync/private_test.cpp", '#include "sync/private.hpp"', "#include <rewind/sync/sync.hpp>")
    t.target("test_sync", ["tests/unit/sync/private_test.cpp"], LAYERS[:4], ("include", "src", "tests"))
    t.write("bench/exactly_500.cpp", "#include <rewind/core/core.hpp>", count=500)
    t.target("bench_x", ["bench/exactly_500.cpp"], ["core"])
    return t


class CheckLayersTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tree = clean_tree(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def assert_reports(self, *expected):
        code, out = self.tree.check()
        self.assertEqual(code, 1, out)
        for e in expected:
            self.assertIn(e, out)
        return out

    def test_clean_tree_passes(self):
        code, out = self.tree.check()
        self.assertEqual(code, 0, out)
        self.assertIn("layers: OK", out)

    def test_public_header_including_a_higher_layer(self):
        self.tree.write("include/rewind/wire/up.hpp", "#pragma once", "", "#include <rewind/sync/sync.hpp>")
        self.assert_reports("include/rewind/wire/up.hpp:3: error: layer 'wire' includes higher layer 'sync'")

    def test_public_header_including_a_layer_its_module_does_not_link(self):
        self.tree.targets = [t for t in self.tree.targets if t["name"] != "rewind_transport"]
        self.tree.target("rewind_transport", ["src/transport/transport.cpp"], ["transport"], ("include", "src"))
        self.assert_reports("include/rewind/transport/transport.hpp:2: error: layer 'transport' includes 'wire'",
                            "rewind_transport does not link rewind_wire")

    def test_public_header_including_a_private_header(self):
        self.tree.write("include/rewind/sync/leak.hpp", "#pragma once", '#include "../../../src/sync/private.hpp"')
        self.tree.write("include/rewind/sync/leak2.hpp", "#pragma once", '#include "sync/private.hpp"')
        self.assert_reports("include/rewind/sync/leak.hpp:2: error: public header includes src/sync/private.hpp",
                            "include/rewind/sync/leak2.hpp:2: error: public header includes private header "
                            "src/sync/private.hpp")

    def test_target_including_a_layer_it_does_not_link(self):
        # The game's own header reaches a layer the game target does not link: reported where it is included.
        self.tree.write("game/include/g/g.hpp", "#pragma once", "#include <rewind/wire/wire.hpp>",
                        "#include <rewind/sync/sync.hpp>")
        self.assert_reports("game/include/g/g.hpp:3: error: includes <rewind/sync/sync.hpp> (layer 'sync') but "
                            "the target does not link rewind::sync (it links core, wire) [target game]")

    def test_target_including_the_umbrella_header_without_linking_every_layer(self):
        self.tree.write("include/rewind/rewind.hpp", "#pragma once", "#include <rewind/session/api.hpp>")
        self.tree.write("bench/umbrella.cpp", "#include <rewind/rewind.hpp>")
        self.tree.target("bench_umbrella", ["bench/umbrella.cpp"], ["core", "wire"])
        self.assert_reports("bench/umbrella.cpp:1: error: includes <rewind/rewind.hpp> (every layer) but the "
                            "target does not link rewind::transport, rewind::sync, rewind::session")

    def test_app_including_a_detail_header(self):
        self.tree.write("apps/a/peek.cpp", "// peeks", "#include <rewind/session/detail/impl.hpp>")
        self.tree.target("peek", ["apps/a/peek.cpp"], LAYERS)
        self.assert_reports("apps/a/peek.cpp:2: error: includes internal header "
                            "include/rewind/session/detail/impl.hpp")

    def test_test_including_another_modules_private_header(self):
        self.tree.write("tests/unit/core/peek_test.cpp", '#include "sync/private.hpp"')
        self.tree.target("test_core", ["tests/unit/core/peek_test.cpp"], ["core"], ("include", "src"))
        self.assert_reports("tests/unit/core/peek_test.cpp:1: error: includes private header "
                            "src/sync/private.hpp of module 'sync'")

    def test_file_no_target_builds_is_still_checked_for_internal_headers(self):
        self.tree.write("tests/fuzz/fuzz_x.cpp", "#include <rewind/session/detail/impl.hpp>")
        self.assert_reports("tests/fuzz/fuzz_x.cpp:1: error: includes internal header")

    def test_file_over_500_lines(self):
        self.tree.write("src/core/long.cpp", "#include <rewind/core/core.hpp>", count=501)
        out = self.assert_reports("src/core/long.cpp:501: error: file has 501 lines")
        self.assertNotIn("exactly_500", out)

    def test_commented_out_include_is_ignored(self):
        self.tree.write("apps/a/old.cpp", "/*", "#include <rewind/session/detail/impl.hpp>", "*/")
        self.tree.target("old", ["apps/a/old.cpp"], LAYERS)
        code, out = self.tree.check()
        self.assertEqual(code, 0, out)


if __name__ == "__main__":
    unittest.main()
