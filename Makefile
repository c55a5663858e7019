# rewind's entry points. `make run` and `make test` install what is missing, build, and run.
SHELL := /bin/bash
JOBS ?= $(shell nproc)
BUILD ?= build
SAN_BUILD ?= build-sanitize
FUZZ_BUILD ?= build-fuzz
WEB_BUILD ?= build-web
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 4
SOAK_ARGS ?= --clients 64 --minutes 60 --sample-seconds 60
SOAK_SAN_ARGS ?= --clients 16 --minutes 5 --sample-seconds 20
CMAKE_ARGS ?=
LAB_ARGS ?= --profile checklist --players 8 --duration 60
# The fuzz build's compiler: clang 19 (Debian bookworm's clang-19), whose libFuzzer keeps its rare-feature set as a
# bitset; clang 14's searched a list on every execution, a quarter of the server-session target's time.
FUZZ_CXX ?= clang++-19

.PHONY: all setup configure build run test test-unit test-sanitize bench fuzz fuzz-smoke fuzz-build soak format format-check tidy clean web

all: build

setup:
	@bash scripts/setup.sh

configure: setup
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@scripts/run_main.sh $(BUILD) $(LAB_ARGS)

test-unit: build web
	@cd $(BUILD) && ctest -j $(JOBS) --output-on-failure --timeout 900

# Formatting first: a second of clang-format before minutes of building.
test: format-check test-unit fuzz-smoke

test-sanitize: setup
	@cmake -S . -B $(SAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
	  -DREWIND_SANITIZE=ON -DREWIND_BUILD_BENCH=OFF $(CMAKE_ARGS) >/dev/null
	@cmake --build $(SAN_BUILD) -j $(JOBS)
	@cd $(SAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest -j $(JOBS) --output-on-failure --timeout 1800 -LE slow

# The simulated hour (64 bots + a 4-peer rollback mesh) in Release, then a shorter stretch under ASan+UBSan.
soak: configure
	@cmake --build $(BUILD) -j $(JOBS) --target test_soak
	@$(BUILD)/tests/test_soak $(SOAK_ARGS)
	@cmake -S . -B $(SAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
	  -DREWIND_SANITIZE=ON -DREWIND_BUILD_BENCH=OFF $(CMAKE_ARGS) >/dev/null
	@cmake --build $(SAN_BUILD) -j $(JOBS) --target test_soak
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(SAN_BUILD)/tests/test_soak $(SOAK_SAN_ARGS)

bench: build
	@scripts/run_benchmarks.sh $(BUILD)

fuzz-build: setup
	@# A build folder configured with another compiler starts afresh: CMake would drop this line's options with it.
	@cached=$$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' $(FUZZ_BUILD)/CMakeCache.txt 2>/dev/null); \
	if [ -n "$$cached" ] && [ "$$(command -v "$$cached")" != "$$(command -v $(FUZZ_CXX))" ]; then \
	  rm -rf $(FUZZ_BUILD)/CMakeCache.txt $(FUZZ_BUILD)/CMakeFiles; fi
	@cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_CXX_COMPILER=$(FUZZ_CXX) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREWIND_BUILD_FUZZ=ON \
	  -DREWIND_BUILD_TESTS=OFF -DREWIND_BUILD_BENCH=OFF -DREWIND_BUILD_APPS=OFF $(CMAKE_ARGS) >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS)

fuzz: fuzz-build
	@scripts/run_fuzzers.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

fuzz-smoke: fuzz-build
	@scripts/run_fuzzers.sh $(FUZZ_BUILD) $(FUZZ_SMOKE_SECONDS)

# The arena client in a browser tab (web/): Emscripten builds the page into $(WEB_BUILD)/site. NODE_PATH lets
# emcc's optimizer find Debian's acorn when node itself is not Debian's.
web: setup
	@bash web/setup.sh
	@export NODE_PATH=/usr/share/nodejs; emcmake cmake -S web -B $(WEB_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null && \
	  cmake --build $(WEB_BUILD) -j $(JOBS)
	@echo "web: the page is in $(WEB_BUILD)/site (rewind-server --web-root $(WEB_BUILD)/site, or any static server)"

format:
	@git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp' | xargs clang-format -i

format-check: setup
	@scripts/format_check.sh

tidy: configure
	@git ls-files 'src/*.cpp' | xargs clang-tidy -p $(BUILD) --quiet

clean:
	@rm -rf $(BUILD) $(SAN_BUILD) $(FUZZ_BUILD) build-*
