# minitf build. `make demo` and `make test` are the two entry points (README):
# both install what they need (pip) and build everything first.
PYTHON ?= python3
CC ?= gcc
CXX ?= g++
BLAS_INC := $(shell $(PYTHON) -c "import scipy_openblas32 as s; print(s.get_include_dir())" 2>/dev/null)
BLAS_LIB := $(shell $(PYTHON) -c "import scipy_openblas32 as s; print(s.get_lib_dir())" 2>/dev/null)
CFLAGS_COMMON := -std=c11 -D_GNU_SOURCE -fPIC -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
	-fvisibility=hidden -I. -Ic_api/include -I$(BLAS_INC) -pthread
CFLAGS ?= -O2 -g
LDLIBS := -Wl,-soname,libc_api.so -L$(BLAS_LIB) -Wl,-rpath,$(BLAS_LIB) -lscipy_openblas -lm -pthread
# Debian libraries (tools/debian_packages.txt), unpacked under build/deps by tools/fetch_debs.sh.
DEPS_ROOT := $(CURDIR)/build/deps/root
DEPS_STAMP := $(DEPS_ROOT)/.packages
DEPS_LIBDIR := $(DEPS_ROOT)/usr/lib/$(shell $(CC) -print-multiarch)
DEPS_LIBS := $(shell sed -e 's/\#.*//' tools/deps_link.txt)
CFLAGS_COMMON += -I$(DEPS_ROOT)/usr/include
LDLIBS += -L$(DEPS_LIBDIR) -Wl,-rpath,$(DEPS_LIBDIR) $(addprefix -l,$(DEPS_LIBS))
# protoc-c (protobuf-c's code generator) runs from build/deps with its own libprotoc.
PROTOC_C := LD_LIBRARY_PATH=$(DEPS_LIBDIR) $(DEPS_ROOT)/usr/bin/protoc-c
SRCS := $(wildcard runtime/*.c runtime/kernels/*.c c_api/*.c)
# The one C++ source, the extern "C" shim over RE2 (runtime/regex.h); setup.py compiles it the same way.
CXXSRCS := $(wildcard runtime/regex/*.cc)
CXXFLAGS_COMMON := -std=c++17 -fPIC -Wall -Wextra -fvisibility=hidden -I. -I$(DEPS_ROOT)/usr/include -pthread
CXXOBJS := $(patsubst runtime/regex/%.cc,build/cxx/%.o,$(CXXSRCS))
ASAN_CXXOBJS := $(patsubst runtime/regex/%.cc,build/asan/cxx/%.o,$(CXXSRCS))
LDLIBS += -lstdc++
HDRS := $(wildcard runtime/*.h runtime/kernels/*.h c_api/*.h c_api/include/tensorflow/c/*.h)
CTESTS := $(patsubst tests/c/%.c,%,$(wildcard tests/c/test_*.c))
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

.PHONY: demo test install deps lib ctest asan-ctest asan-pytest pytest clean test-interop

demo: install
	$(PYTHON) -m minitf demo

# Every test, C (normal and ASan/UBSan builds) and Python. The recursive
# make re-reads the BLAS paths once `deps` has installed scipy-openblas32.
test: install
	$(MAKE) ctest asan-ctest asan-pytest
	$(PYTHON) -m pytest -q tests

deps: $(DEPS_STAMP)
	$(PYTHON) -m pip install -q --disable-pip-version-check -r requirements-dev.txt

$(DEPS_STAMP): tools/debian_packages.txt tools/fetch_debs.sh
	sh tools/fetch_debs.sh build/deps

install: deps
	$(PYTHON) -m pip install -q --disable-pip-version-check --no-build-isolation -e .

pytest:
	$(PYTHON) -m pytest -q tests

# Optional: DLPack interchange with PyTorch / JAX. Install them yourself into
# the venv first (e.g. pip install torch==2.13.0 from a local wheel); the
# tests of a framework that is missing are skipped, and the run lists why.
test-interop:
	$(PYTHON) -m pytest -q -rs tests/python/test_dlpack.py

lib: build/libc_api.so

build/cxx/%.o: runtime/regex/%.cc runtime/regex.h | $(DEPS_STAMP)
	@mkdir -p build/cxx
	$(CXX) $(CXXFLAGS_COMMON) $(CFLAGS) -c -o $@ $<

build/asan/cxx/%.o: runtime/regex/%.cc runtime/regex.h | $(DEPS_STAMP)
	@mkdir -p build/asan/cxx
	$(CXX) $(CXXFLAGS_COMMON) $(SANFLAGS) -c -o $@ $<

build/libc_api.so: $(SRCS) $(HDRS) $(CXXOBJS) | $(DEPS_STAMP)
	@mkdir -p build
	$(CC) $(CFLAGS_COMMON) $(CFLAGS) -shared -o $@ $(SRCS) $(CXXOBJS) $(LDLIBS)

build/asan/libc_api.so: $(SRCS) $(HDRS) $(ASAN_CXXOBJS) | $(DEPS_STAMP)
	@mkdir -p build/asan
	$(CC) $(CFLAGS_COMMON) $(SANFLAGS) -shared -o $@ $(SRCS) $(ASAN_CXXOBJS) $(LDLIBS)

build/ctest/%: tests/c/%.c tests/c/ctest.h tests/c/ctest_graph.h build/libc_api.so
	@mkdir -p build/ctest
	$(CC) -std=c11 -D_GNU_SOURCE -O1 -g -I. -Ic_api/include -Itests/c -o $@ $< -Lbuild -Wl,-rpath,$(CURDIR)/build -lc_api -lm

build/asan/ctest/%: tests/c/%.c tests/c/ctest.h tests/c/ctest_graph.h build/asan/libc_api.so
	@mkdir -p build/asan/ctest
	$(CC) -std=c11 -D_GNU_SOURCE $(SANFLAGS) -I. -Ic_api/include -Itests/c -o $@ $< -Lbuild/asan -Wl,-rpath,$(CURDIR)/build/asan -lc_api -lm

# C tests run from the repo root (they read tests/fixtures/).
ctest: $(addprefix build/ctest/,$(CTESTS))
	@set -e; for t in $(CTESTS); do echo "== $$t"; ./build/ctest/$$t; done

asan-ctest: $(addprefix build/asan/ctest/,$(CTESTS))
	@set -e; for t in $(CTESTS); do echo "== asan $$t"; ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ./build/asan/ctest/$$t; done

# The golden op suite and its gradients, the ImageSummary pixel tests, the state-op programs and the
# optimizer update ops through Python with
# the ASan/UBSan build of libc_api.so preloaded in place of the normal one
# (same soname). Python itself is not
# instrumented, so leak checking is off; every out-of-bounds access or UB in
# the runtime and kernels fails the run.
ASAN_RT := $(shell $(CC) -print-file-name=libasan.so)
UBSAN_RT := $(shell $(CC) -print-file-name=libubsan.so)
asan-pytest: build/asan/libc_api.so
	LD_PRELOAD="$(ASAN_RT) $(UBSAN_RT) $(CURDIR)/build/asan/libc_api.so" \
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/python/test_goldens.py tests/python/test_summary_image.py \
	  tests/python/test_state_ops.py tests/python/test_gradient_goldens.py tests/python/test_second_order.py \
	  tests/python/test_training_ops.py tests/python/test_optimizers.py tests/python/test_bn_second_order.py \
	  tests/python/test_tensor_array.py tests/python/test_list_ops.py tests/python/test_stack_ops.py \
	  tests/python/test_control_flow.py tests/python/test_control_flow_grad.py \
	  tests/python/test_control_flow_v1.py tests/python/test_rnn.py tests/python/test_functional_ops.py \
	  tests/python/test_checkpoint_v2.py tests/python/test_string_ops.py tests/python/test_embedding.py \
	  tests/python/test_partitioned.py

clean:
	rm -rf build
