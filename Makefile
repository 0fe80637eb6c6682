# Quick start:  make demo   (install missing Debian packages when root, build Release, run examples/demo.json)
#               make test   (build and run the ctest/cmocka suite, without the tests labelled slow)
# make test and make test-sanitize skip the tests labelled "slow" (the full
# IPC scenes, the long twist, valgrind); make test-all runs them too.
# make test-sanitize runs the suite once more under ASan + UBSan, in its own
# build folder (.ci/run does both). make test-cluster runs the tests labelled
# cluster (a real single-node Slurm, a real Dask scheduler and workers;
# docs/batch-runs.md), which make test and make test-sanitize skip too
# (.ci/run runs them). Under CI=true warnings are errors.

BUILD_DIR   ?= build
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
DEPS        := cmake make gcc pkg-config libsuitesparse-dev liblapacke-dev libopenblas-dev libcmocka-dev libcjson-dev zlib1g-dev
# Tests: VTK's own readers (vtk_check.py), exact arithmetic (GMP), the
# plotting and rendering scripts (matplotlib, Xvfb), the GNU parallel recipe
# of docs/batch-runs.md.
TEST_DEPS   := python3-vtk9 libgmp-dev python3-matplotlib xvfb xauth parallel python3-numpy python3-pytest python3-venv python3-setuptools
# The cluster tests: Slurm (controller, node daemon, client) with munge, and Dask.
CLUSTER_DEPS := munge slurmctld slurmd slurm-client python3-distributed
DEMO_SCENE  ?= examples/demo.json
DEMO_OUT    ?= out/demo

ifeq ($(CI),true)
  WERROR      := -DIPCC_WERROR=ON
endif
SLOW_NOTE   := @echo "make: tests labelled slow were skipped (about 17 minutes more on 2 cores; run them with: make test-all), and those labelled cluster (a real Slurm and Dask, root; make test-cluster)"

.PHONY: demo test test-sanitize test-all test-cluster deps test-deps cluster-deps release debug sanitize bench fuzz clean format python

demo: deps release
	$(BUILD_DIR)/release/ipcc run $(DEMO_SCENE) -o $(DEMO_OUT) --overwrite
	@echo "Open $(DEMO_OUT)/frames.pvd in ParaView."

test: deps test-deps debug
	cd $(BUILD_DIR)/test && ctest --output-on-failure -j $(JOBS) -LE 'slow|cluster' $(CTEST_FLAGS)
	$(SLOW_NOTE)

# The same suite under AddressSanitizer and UndefinedBehaviorSanitizer.
test-sanitize: deps test-deps sanitize
	cd $(BUILD_DIR)/sanitize && ctest --output-on-failure -j $(JOBS) -LE 'slow|cluster' $(CTEST_FLAGS)
	$(SLOW_NOTE)

# The cluster tests: a single-node Slurm and a Dask scheduler with two
# workers, brought up and shut down by the tests (about 3 minutes; root).
test-cluster: deps test-deps cluster-deps debug
	cd $(BUILD_DIR)/test && ctest --output-on-failure -L cluster $(CTEST_FLAGS)

# Everything, including the slow scenes and the cluster tests.
test-all: deps test-deps cluster-deps debug
	cd $(BUILD_DIR)/test && ctest --output-on-failure -j $(JOBS)

release:
	cmake -S . -B $(BUILD_DIR)/release -DCMAKE_BUILD_TYPE=Release -DIPCC_BUILD_TESTS=OFF $(WERROR)
	cmake --build $(BUILD_DIR)/release -j $(JOBS)

debug:
	cmake -S . -B $(BUILD_DIR)/test -DCMAKE_BUILD_TYPE=RelWithDebInfo $(WERROR)
	cmake --build $(BUILD_DIR)/test -j $(JOBS)

sanitize:
	cmake -S . -B $(BUILD_DIR)/sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIPCC_SANITIZE=ON $(WERROR)
	cmake --build $(BUILD_DIR)/sanitize -j $(JOBS)

# The Python package for Debian's python3, offline (docs/python.md).
python: deps release
	@scripts/install-deps.sh python3-numpy
	@scripts/install-python.sh $(BUILD_DIR)/release

# Install missing Debian packages (as root), or print the command to do it.
deps:
	@scripts/install-deps.sh $(DEPS)

test-deps:
	@scripts/install-deps.sh $(TEST_DEPS)

cluster-deps:
	@scripts/install-deps.sh $(CLUSTER_DEPS)

# bench/run.sh on the Release build; BENCH_FLAGS e.g. "--only ipc,scaling --no-commit" (bench/README.md).
bench: deps release
	@scripts/install-deps.sh time
	bench/run.sh --build $(BUILD_DIR)/release $(BENCH_FLAGS)

# libFuzzer on the file readers (clang): FUZZ_SECONDS per target (bench/fuzz.sh).
fuzz:
	@scripts/install-deps.sh clang
	bench/fuzz.sh $(or $(FUZZ_SECONDS),60)

format:
	find src include tests bench examples -name '*.[ch]' -not -path 'tests/data/*' -not -path 'tests/fuzz/corpus/*' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR)
