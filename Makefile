# fctrace - build, test, bench, install.
#
#   make            build ./fctrace and its JVMTI agent, fctrace-jvmti.so
#   make agent      the JVMTI agent alone (sources: user/jvm/agent/)
#   make deps       install the missing Debian packages (needs root)
#   make run        deps + build + `fctrace run --workload fcp --files 60`
#   make test       deps + build + every test (BPF tests need root)
#   make bench      tracing overhead and workload fidelity (not part of test)
#   make truth      three figures against independent ones (not part of test)
#   make fuzz       libFuzzer on every parser, FUZZ_SECONDS each (not part of test)
#   make install    PREFIX=/usr/local
#   V=1             show the commands

OUTPUT   := .output
CLANG    ?= clang
BPFTOOL  ?= bpftool
CC       ?= cc
PREFIX   ?= /usr/local
ARCH     := $(shell uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/')

# Debian packages the build, the tests and the reports need.
# openjdk-17-jdk-headless: jvmti.h, for the JVMTI agent (fctrace-jvmti.so)
DEPS_PKGS := clang llvm libbpf-dev bpftool libelf-dev libdw-dev zlib1g-dev libcmocka-dev \
	     pkg-config libjson-c-dev make gcc libprotobuf-c-dev protobuf-c-compiler \
	     golang-github-google-pprof-dev openjdk-17-jdk-headless
# ... and the ones only the tests use: the JSON schema check, the HTML render
# check, the pprof file's decoding.
TEST_PKGS := python3-jsonschema chromium valgrind protobuf-compiler strace

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

CFLAGS   ?= -O2 -g
WARN     := -Wall -Wextra -Wno-unused-parameter -Wshadow -Wstrict-prototypes
CPPFLAGS := -I$(OUTPUT) -Iuser -Iworkloads -Ibpf -D_GNU_SOURCE -MMD -MP
LDLIBS   := -lbpf -ldw -lelf -lz -ljson-c -lprotobuf-c -lpthread -lm -lstdc++

# The link order is fixed, not $(wildcard)'s (make before 4.3 does not
# sort it): common.bpf.c first - the libbpf linker workaround it describes
# needs the maps' definitions first - then the rest by name.
BPF_SRCS  := bpf/common.bpf.c $(sort $(filter-out bpf/common.bpf.c,$(wildcard bpf/*.bpf.c)))
BPF_OBJS  := $(patsubst bpf/%.bpf.c,$(OUTPUT)/bpf/%.bpf.o,$(BPF_SRCS))
WL_SRCS   := $(wildcard workloads/*.c)
WL_OBJS   := $(patsubst %.c,$(OUTPUT)/%.o,$(WL_SRCS))
# The JVMTI agent is a build product of its own, a shared object loaded
# into a JVM: its sources are user/jvm/agent/ (user/*/*.c, fctrace's, does
# not reach them), its objects .output/agent/, its rule below.
AGENT_DIR  := user/jvm/agent
AGENT_SRCS := $(wildcard $(AGENT_DIR)/*.c)
AGENT_OBJS := $(patsubst $(AGENT_DIR)/%.c,$(OUTPUT)/agent/%.o,$(AGENT_SRCS))
AGENT      := fctrace-jvmti.so
JDK_INC   ?= $(firstword $(wildcard /usr/lib/jvm/java-17-openjdk-*/include) \
		$(wildcard /usr/lib/jvm/default-java/include))
USER_SRCS := $(filter-out user/cli/main.c,$(wildcard user/*/*.c))
# --pprof: C generated from pprof's own profile.proto (Debian's
# golang-github-google-pprof-dev) by protoc-c, into .output/ only
PPROF_PROTO := /usr/share/gocode/src/github.com/google/pprof/proto/profile.proto
PB_SRC    := $(OUTPUT)/pprof/profile.pb-c.c
PB_H      := $(OUTPUT)/pprof/profile.pb-c.h
USER_OBJS := $(patsubst %.c,$(OUTPUT)/%.o,$(USER_SRCS)) $(OUTPUT)/pprof/profile.pb-c.o
# tests/STAGE/test_*.c, each a binary .output/tests/STAGE/test_* (tests/README.md)
TEST_SRCS := $(wildcard tests/*/test_*.c)
TEST_BINS := $(patsubst tests/%.c,$(OUTPUT)/tests/%,$(TEST_SRCS))
BENCH_SRCS := $(wildcard tests/bench_*.c)
BENCH_BINS := $(patsubst tests/%.c,$(OUTPUT)/tests/%,$(BENCH_SRCS))
# a program fctrace did not write: built alone, with debug info, no fctrace headers
TARGET_PROG := $(OUTPUT)/tests/target_prog
# another, the holders probes' ground truth (it times its own holds); defined
# here, before the rules that name it (prerequisites expand as they are read)
HOLDPROG := $(OUTPUT)/tests/holdprog
# and one with a handle cache of known size over known files (test_bpf_handles)
FDCACHE_PROG := $(OUTPUT)/tests/fdcache_prog
CONN_PROG := $(OUTPUT)/tests/conn_prog
PROXY_PROG := $(OUTPUT)/tests/proxy_prog
# and one whose lock is taken in a function inlined into its caller (test_bpf_inline)
INLINE_PROG := $(OUTPUT)/tests/inline_prog
# and a pool of N that times its own waits and holds (test_bpf_pools)
POOL_PROG := $(OUTPUT)/tests/pool_prog
# the helpers every test binary links (tests/lib/), found by -Itests/lib
TEST_HELPERS := $(patsubst %.c,$(OUTPUT)/%.o,$(wildcard tests/lib/*.c))
# recorded kernel views (tests/join/record_join.c) that test_join builds joined runs from
MODEL_FIXTURES := $(patsubst %.c,$(OUTPUT)/%.o,$(wildcard tests/join/fixtures/*.c))

.PHONY: all agent deps deps-test deps-bench run test test-build bench holdcheck pools-check truth model-check seed003 fuzz fuzz-replay fuzz-merge install clean
.DELETE_ON_ERROR:
.SECONDARY:

all: fctrace $(AGENT)

# make agent: the JVMTI agent alone. JVMTI's jvmti.h is the JDK's
# (openjdk-17-jdk-headless, in DEPS_PKGS); the agent includes nothing of
# fctrace's (tests/include_graph.py checks it), needs no skeleton, and
# exports only Agent_OnLoad/OnAttach.
agent: $(AGENT)

$(OUTPUT)/agent/%.o: $(AGENT_DIR)/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARN) -D_GNU_SOURCE -fPIC -fvisibility=hidden -MMD -MP \
		-isystem $(JDK_INC) -isystem $(JDK_INC)/linux -c $< -o $@

$(AGENT): $(AGENT_OBJS)
	$(call msg,AGENT,$@)
	$(Q)$(CC) $(CFLAGS) -shared -fvisibility=hidden $^ -o $@ -lpthread

deps:
	@missing=""; for p in $(DEPS_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' \
	    || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  [ "$$(id -u)" = 0 ] || { echo "fctrace: installing packages needs root (sudo make deps)"; exit 1; }; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

run: deps fctrace
	./fctrace run --workload fcp --files 60

# the same install step as deps, over the test-only packages
deps-test:
	@$(MAKE) --no-print-directory deps DEPS_PKGS="$(TEST_PKGS)"

# The unit tests again under ASan+UBSan, and the threaded workload tests
# under TSan: each sanitizer gets its own objects in its own directory.
SAN_SRCS  := $(WL_SRCS) $(USER_SRCS) $(PB_SRC) $(addprefix tests/lib/,testutil.c bpfutil.c progwalk.c binutil.c \
	     trace_check.c joinutil.c acctutil.c jsonutil.c flameutil.c diagutil.c explfx.c)
# named by their folder under tests/: asan/base/test_hist is tests/base/test_hist.c
ASAN_TESTS := base/test_hist base/test_numlist cli/test_options explain/test_explain explain/test_whatif \
	      explain/test_rules_caches explain/test_rules_cpu explain/test_rules_locks \
	      explain/test_whatif_lock workloads/test_wl_pool workloads/test_wl_bcache workloads/test_wl_run \
	      report/test_html trace/test_probes join/test_join jvm/test_jvm join/test_timeline \
	      session/test_load_json base/test_termsafe base/test_sudo report/test_flame_inline \
	      trace/test_uinline join/test_pools join/test_pools_peer join/test_pools_proxy base/test_idxhash join/test_holders trace/test_account
TSAN_TESTS := workloads/test_wl_run workloads/test_wl_bcache
ASAN_BINS := $(patsubst %,$(OUTPUT)/asan/%,$(ASAN_TESTS))
TSAN_BINS := $(patsubst %,$(OUTPUT)/tsan/%,$(TSAN_TESTS))
ASAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
TSAN_FLAGS := -O1 -g -fsanitize=thread

# Tests that need no root, load no BPF and time nothing: tests/run.sh runs
# them NPROC at a time (the TSan ones, the slowest, first), before the
# others, which run one at a time (a BPF test's figures change when another
# test takes its CPU). A new test is not pooled unless it is named here.
POOL_TESTS := report/test_html workloads/test_wl_run workloads/test_wl_bcache workloads/test_wl_pool \
	      report/test_compare explain/test_explain base/test_hist join/test_join jvm/test_jvm \
	      base/test_numlist cli/test_options trace/test_probes explain/test_roles session/test_sweep \
	      join/test_timeline explain/test_whatif explain/test_whatif_lock join/test_lockname join/test_reuse \
	      join/test_pools join/test_pools_jvm join/test_pools_peer join/test_pools_proxy trace/test_blockuse explain/test_knobs report/test_table_locks report/test_caches_print join/test_roots \
	      trace/test_account explain/test_rules_caches explain/test_rules_cpu explain/test_rules_locks
POOL_BINS := $(filter $(patsubst %,$(OUTPUT)/tsan/%,$(POOL_TESTS)),$(TSAN_BINS)) \
	     $(filter $(patsubst %,$(OUTPUT)/tests/%,$(POOL_TESTS)),$(TEST_BINS)) \
	     $(filter $(patsubst %,$(OUTPUT)/asan/%,$(POOL_TESTS)),$(ASAN_BINS))
# Root and BPF, but asserting nothing another test's CPU use could move
# (texts, files, exact counts, round trips): tests/run.sh runs them two at a
# time after the pooled ones. Each writes only under its own mkdtemp or
# pid-named paths.
PAIR_TESTS := cli/test_outputs report/test_report session/test_saved cli/test_hardening \
	      cli/test_target_cli report/test_schema cli/test_preflight cli/test_security \
	      jvm/test_jvm_attach_sec
PAIR_BINS := $(filter $(patsubst %,$(OUTPUT)/tests/%,$(PAIR_TESTS)),$(TEST_BINS))
# Every other test checks its figures against the program's own clocks or
# exact counts of the same run, and holds beside another test (issue 43:
# the suite passes beside a second make test): they run two at a time,
# after the pairs. Alone, last: those whose what-ifs are checked against
# later runs of the program (the machine's load moves those runs, not the
# traced one), the 16 000 threads of test_bpf_crowd, and two whose figures
# still bend under load (beside two suites at once: test_bpf_handles' shared
# pool missed its children's reads, test_bpf_jvm_pools' Semaphore read 4
# permits for 3).
SOLO_TESTS := bpf/test_bpf_held jvm/test_bpf_jvm_held bpf/test_bpf_crowd bpf/test_bpf_handles \
	      jvm/test_bpf_jvm_pools
SOLO_BINS := $(filter $(patsubst %,$(OUTPUT)/tests/%,$(SOLO_TESTS)),$(TEST_BINS))
TWO_BINS  := $(filter-out $(POOL_BINS) $(PAIR_BINS) $(SOLO_BINS),$(TEST_BINS) $(ASAN_BINS) $(TSAN_BINS))
NPROC     := $(shell nproc 2>/dev/null || echo 1)

# The packages first, then everything the tests run, built NPROC at a time
# when make was not given -j (CI runs a bare `make test`).
test: deps deps-test
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC)) test-build
	@python3 tests/include_graph.py --self-test && python3 tests/include_graph.py
	@python3 tests/doc_paths.py --self-test && python3 tests/doc_paths.py
	@bash tests/completion_check.sh ./fctrace
	@python3 tests/options_check.py ./fctrace
	@sh tests/bpf_arm64_check.sh $(CLANG) $(OUTPUT)/vmlinux.h $(OUTPUT)/arm64 $(BPF_SRCS)
	@valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite -q \
		./fctrace run --no-bpf --ops 2000 --threads 2 --quiet \
		&& echo "valgrind memcheck of fctrace run --no-bpf: clean"
	@./fctrace run --no-bpf --ops 2000 --threads 2 --quiet --json $(OUTPUT)/saved-run.json \
		&& valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite -q \
		./fctrace report $(OUTPUT)/saved-run.json --quiet --json $(OUTPUT)/saved-again.json \
		&& rm -f $(OUTPUT)/saved-run.json $(OUTPUT)/saved-again.json \
		&& echo "valgrind memcheck of fctrace report: clean"
	@$(MAKE) --no-print-directory fuzz-replay
	@sh tests/run.sh -j $(NPROC) $(POOL_BINS) -- -j 2 $(PAIR_BINS) -- -j 2 $(TWO_BINS) -- \
		$(SOLO_BINS)


$(OUTPUT)/asan/%.o: %.c $(OUTPUT)/fctrace.skel.h
	@mkdir -p $(@D)
	$(call msg,ASAN,$@)
	$(Q)$(CC) $(ASAN_FLAGS) $(WARN) $(CPPFLAGS) -c $< -o $@

$(OUTPUT)/tsan/%.o: %.c $(OUTPUT)/fctrace.skel.h
	@mkdir -p $(@D)
	$(call msg,TSAN,$@)
	$(Q)$(CC) $(TSAN_FLAGS) $(WARN) $(CPPFLAGS) -c $< -o $@

$(ASAN_BINS): $(OUTPUT)/asan/%: $(OUTPUT)/asan/tests/%.o $(patsubst %.c,$(OUTPUT)/asan/%.o,$(SAN_SRCS))
	@mkdir -p $(@D)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(ASAN_FLAGS) -rdynamic $^ $(LDLIBS) -lcmocka -o $@

$(OUTPUT)/asan/join/test_join: $(patsubst %.c,$(OUTPUT)/asan/%.o,$(wildcard tests/join/fixtures/*.c))

$(TSAN_BINS): $(OUTPUT)/tsan/%: $(OUTPUT)/tsan/tests/%.o $(patsubst %.c,$(OUTPUT)/tsan/%.o,$(SAN_SRCS))
	@mkdir -p $(@D)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(TSAN_FLAGS) -rdynamic $^ $(LDLIBS) -lcmocka -o $@

# the server part's server and its single-purpose peer (tests/bench_server.sh)
BENCH_PKGS := postgresql bpftrace redis-server redis-tools nginx wrk
deps-bench:
	@$(MAKE) --no-print-directory deps DEPS_PKGS="$(BENCH_PKGS)"

bench: deps deps-bench fctrace $(AGENT) $(BENCH_BINS) $(HOLDPROG) $(POOL_PROG)
	@sh tests/bench.sh

# docs/how-we-checked.md: lock sites, user/sys and p99 against independent figures
TRUTH_BINS := $(patsubst tests/truth/%.c,$(OUTPUT)/tests/truth/%,$(wildcard tests/truth/*.c))
truth: deps fctrace $(TRUTH_BINS)
	@sh tests/truth.sh

$(OUTPUT)/tests/truth/%: tests/truth/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARN) $< -o $@ -pthread

# the what-if model against the FileChannelPool benchmark's matrix on 2 CPUs
# and on 1 (docs/whatif-model.md); about 5 minutes, root
model-check: deps fctrace $(OUTPUT)/tests/model_check
	@FCTRACE=./fctrace CHECK=$(OUTPUT)/tests/model_check sh tests/model_check.sh

# Lucene's NioFile block cache benchmark's matrix in its layout
# (docs/benchmarks.md)
seed003: deps fctrace
	@python3 tests/seed003.py --csv seed003.csv --json seed003.json

# make fuzz: one libFuzzer target per parser (tests/fuzz/fuzz_*.c), built
# with clang under ASan+UBSan, each run for FUZZ_SECONDS into a scratch
# corpus under .output/fuzz/, seeded read-only from tests/fuzz/corpus/.
# make fuzz-replay (part of make test) runs each over the repo corpus once;
# make fuzz-merge minimises what fuzzing found into the repo corpus.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(patsubst %,$(OUTPUT)/fuzz/%,$(FUZZ_TARGETS))
# fuzz_loadjson reads saved runs and prints them: the reporters, the
# model and (through session_free) the tracer come with it, so all of
# user/ is in the archive (a target links only what it calls) and that
# target links fctrace's own libraries.
FUZZ_SRCS := $(USER_SRCS) $(WL_SRCS) $(PB_SRC)
FUZZ_FLAGS := -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	      -fno-sanitize-recover=all

fuzz: $(FUZZ_BINS)
	@sh tests/fuzz/fuzz.sh fuzz $(FUZZ_SECONDS) $(FUZZ_BINS)

fuzz-replay: $(FUZZ_BINS)
	@sh tests/fuzz/fuzz.sh replay 0 $(FUZZ_BINS)

fuzz-merge: $(FUZZ_BINS)
	@sh tests/fuzz/fuzz.sh merge 0 $(FUZZ_BINS)

# make test's builds (here, after FUZZ_BINS: prerequisites expand as read)
test-build: fctrace $(AGENT) $(TARGET_PROG) $(HOLDPROG) $(FDCACHE_PROG) $(CONN_PROG) $(PROXY_PROG) $(INLINE_PROG) $(POOL_PROG) $(TEST_BINS) $(ASAN_BINS) $(TSAN_BINS) \
	    $(FUZZ_BINS)

$(OUTPUT)/fuzz/fuzz_%.o: tests/fuzz/fuzz_%.c $(OUTPUT)/fctrace.skel.h
	@mkdir -p $(@D)
	$(call msg,FUZZ,$@)
	$(Q)$(CLANG) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(WARN) $(CPPFLAGS) -c $< -o $@

$(OUTPUT)/fuzz/%.o: %.c $(OUTPUT)/fctrace.skel.h
	@mkdir -p $(@D)
	$(call msg,FUZZ,$@)
	$(Q)$(CLANG) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(WARN) $(CPPFLAGS) -c $< -o $@

$(OUTPUT)/fuzz/libfuzzed.a: $(patsubst %.c,$(OUTPUT)/fuzz/%.o,$(FUZZ_SRCS))
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

FUZZ_LIBS := -lpthread -lm
$(OUTPUT)/fuzz/fuzz_loadjson: FUZZ_LIBS := $(LDLIBS)

$(OUTPUT)/fuzz/fuzz_%: $(OUTPUT)/fuzz/fuzz_%.o $(OUTPUT)/fuzz/libfuzzed.a
	$(call msg,LINK,$@)
	$(Q)$(CLANG) $(FUZZ_FLAGS) -fsanitize=fuzzer $^ $(FUZZ_LIBS) -o $@

$(OUTPUT) $(OUTPUT)/bpf $(OUTPUT)/user $(OUTPUT)/workloads $(OUTPUT)/tests:
	$(Q)mkdir -p $@

# Syscall names by number, from the C library's kernel headers (none: numbers only).
SYSCALL_H := $(firstword $(wildcard /usr/include/$(shell $(CC) -dumpmachine)/asm/unistd_64.h \
		/usr/include/asm/unistd_64.h))
$(OUTPUT)/sysnames.h.in: $(SYSCALL_H) | $(OUTPUT)
	$(call msg,GEN,$@)
	$(Q){ [ -z "$(SYSCALL_H)" ] || awk '$$1 == "#define" && $$2 ~ /^__NR_/ && $$3 ~ /^[0-9]+$$/ \
		{ sub("^__NR_", "", $$2); printf "\t[%s] = \"%s\",\n", $$3, $$2 }' $(SYSCALL_H); } > $@

$(OUTPUT)/user/base/sysnames.o $(OUTPUT)/asan/user/base/sysnames.o $(OUTPUT)/tsan/user/base/sysnames.o \
	$(OUTPUT)/fuzz/user/base/sysnames.o: \
	$(OUTPUT)/sysnames.h.in

$(PB_SRC): $(PPROF_PROTO)
	@mkdir -p $(@D)
	$(call msg,PROTOC,$@)
	$(Q)protoc-c --c_out=$(@D) --proto_path=$(dir $(PPROF_PROTO)) $(PPROF_PROTO)
$(PB_H): $(PB_SRC)

$(OUTPUT)/pprof/profile.pb-c.o: $(PB_SRC)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(OUTPUT)/user/report/pprof.o $(OUTPUT)/asan/user/report/pprof.o \
	$(OUTPUT)/tsan/user/report/pprof.o $(OUTPUT)/fuzz/user/report/pprof.o: $(PB_H)

# vmlinux.h comes from the running kernel's BTF, never from the repo.
$(OUTPUT)/vmlinux.h: | $(OUTPUT)
	$(call msg,GEN,$@)
	$(Q)$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@

# usdt.bpf.h includes <linux/errno.h>, whose <asm/errno.h> is in the
# multiarch directory: searched last, so that nothing else is shadowed.
BPF_SYS_INC := -idirafter /usr/include/$(shell uname -m)-linux-gnu

$(OUTPUT)/bpf/%.bpf.o: bpf/%.bpf.c $(OUTPUT)/vmlinux.h | $(OUTPUT)/bpf
	$(call msg,BPF,$@)
	$(Q)$(CLANG) -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) \
		-I$(OUTPUT) -Ibpf $(BPF_SYS_INC) -MMD -MP -c $< -o $@

# Several BPF objects linked into one, then one skeleton for all of them.
$(OUTPUT)/fctrace.bpf.o: $(BPF_OBJS)
	$(call msg,BPFLINK,$@)
	$(Q)$(BPFTOOL) gen object $@ $(BPF_OBJS)

$(OUTPUT)/fctrace.skel.h: $(OUTPUT)/fctrace.bpf.o
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name fctrace_bpf > $@

# Test-only BPF programs (tests/bpf/), each in a skeleton of its own, run
# with BPF_PROG_TEST_RUN: never part of fctrace.
$(OUTPUT)/tests/bpf/%.bpf.o: tests/bpf/%.bpf.c $(OUTPUT)/vmlinux.h
	@mkdir -p $(@D)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) \
		-I$(OUTPUT) -Ibpf -Itests/bpf -MMD -MP -c $< -o $@

$(OUTPUT)/%.skel.h: $(OUTPUT)/tests/bpf/%.bpf.o
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $* > $@

$(OUTPUT)/tests/bpf/test_bpf_charge.o: $(OUTPUT)/account_test.skel.h
$(OUTPUT)/tests/join/test_join: $(MODEL_FIXTURES)

# a test's sources (and the sanitizers' and the fuzzers' builds of them)
# include the shared helpers by their names alone
$(OUTPUT)/tests/%.o $(OUTPUT)/asan/tests/%.o $(OUTPUT)/tsan/tests/%.o: CPPFLAGS += -Itests/lib

$(OUTPUT)/user/%.o: user/%.c $(OUTPUT)/fctrace.skel.h
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARN) $(CPPFLAGS) -c $< -o $@

$(OUTPUT)/workloads/%.o: workloads/%.c | $(OUTPUT)/workloads
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARN) $(CPPFLAGS) -c $< -o $@

$(OUTPUT)/tests/%.o: tests/%.c $(OUTPUT)/fctrace.skel.h | $(OUTPUT)/tests
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARN) $(CPPFLAGS) -c $< -o $@

$(OUTPUT)/libworkloads.a: $(WL_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(OUTPUT)/libfctrace.a: $(USER_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

fctrace: $(OUTPUT)/user/cli/main.o $(OUTPUT)/libfctrace.a $(OUTPUT)/libworkloads.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) -rdynamic $^ $(LDLIBS) -o $@

$(OUTPUT)/tests/%: $(OUTPUT)/tests/%.o $(TEST_HELPERS) $(OUTPUT)/libfctrace.a $(OUTPUT)/libworkloads.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) -rdynamic $^ $(LDLIBS) -lcmocka -o $@

$(TARGET_PROG): tests/target_prog.c tests/lib/uring.c | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) -g -O1 -fomit-frame-pointer $(WARN) -Itests/lib $^ -o $@ -pthread

# the holders probes' ground truth (tests/holdprog.c, built alone like
# target_prog) and its reader, which runs it under those probes
$(FDCACHE_PROG): tests/fdcache_prog.c | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) -g -O2 $(WARN) $< -o $@

$(CONN_PROG): tests/conn_prog.c | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) -g -O2 $(WARN) $< -o $@

$(PROXY_PROG): tests/proxy_prog.c | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) -g -O2 $(WARN) $< -o $@ -pthread

# -O2 -g as the issue's program: get_locked inlined, DWARF says so
$(INLINE_PROG): tests/inline_prog.c | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) -g -O2 $(WARN) $< -o $@ -pthread

# the test runs it: built with it (order only: not linked in)
$(OUTPUT)/tests/bpf/test_bpf_inline: | $(INLINE_PROG)

$(POOL_PROG): tests/pool_prog.c | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) -g -O2 $(WARN) $< -o $@ -pthread

$(OUTPUT)/tests/bpf/test_bpf_pools $(OUTPUT)/tests/session/test_saved \
	$(OUTPUT)/tests/bpf/test_bpf_blocked: | $(POOL_PROG)

$(HOLDPROG): tests/holdprog.c | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) -g -O2 $(WARN) $< -o $@ -pthread

$(OUTPUT)/tests/holdcheck: $(OUTPUT)/tests/holdcheck.o $(OUTPUT)/tests/lib/holdutil.o \
			   $(OUTPUT)/tests/lib/progwalk.o \
			   $(OUTPUT)/libfctrace.a $(OUTPUT)/libworkloads.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) -rdynamic $^ $(LDLIBS) -o $@

# sudo make holdcheck: the holders probes against holdprog's own timings
holdcheck: fctrace $(HOLDPROG) $(OUTPUT)/tests/holdcheck
	@sh tests/holdcheck.sh

# a pool's what-ifs against real runs of tests/pool_prog (docs/pools.md)
pools-check: fctrace $(POOL_PROG)
	@sh tests/pools_check.sh

# make bench's helpers: the bare fc loop (only fc's random stream) and the loader probe.
$(OUTPUT)/tests/bench_bare: tests/bench_bare.c $(OUTPUT)/libworkloads.a | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(WARN) -D_GNU_SOURCE -Iworkloads -Ibpf $^ -o $@ -pthread

$(OUTPUT)/tests/bench_probe: $(OUTPUT)/tests/bench_probe.o $(OUTPUT)/tests/lib/progwalk.o \
			     $(OUTPUT)/libfctrace.a $(OUTPUT)/libworkloads.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) -rdynamic $^ $(LDLIBS) -o $@

# the JVMTI agent alone, loaded into a JVM for bench.sh's jvm part
$(OUTPUT)/tests/bench_jvm_agent: $(OUTPUT)/tests/bench_jvm_agent.o $(OUTPUT)/libfctrace.a \
				 $(OUTPUT)/libworkloads.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) -rdynamic $^ $(LDLIBS) -o $@

# the what-if model scored against saved runs (whatif.c, docs/whatif-model.md)
$(OUTPUT)/tests/model_check: $(OUTPUT)/tests/model_check.o $(OUTPUT)/libfctrace.a $(OUTPUT)/libworkloads.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) -rdynamic $^ $(LDLIBS) -o $@

# make test's model fixtures come from this (by hand, as root): see tests/join/record_join.c
$(OUTPUT)/tests/join/record_join: $(OUTPUT)/tests/join/record_join.o $(OUTPUT)/libfctrace.a $(OUTPUT)/libworkloads.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) -rdynamic $^ $(LDLIBS) -o $@

install: fctrace $(AGENT)
	install -D -m 0755 fctrace $(DESTDIR)$(PREFIX)/bin/fctrace
	install -D -m 0644 $(AGENT) $(DESTDIR)$(PREFIX)/bin/$(AGENT)
	install -D -m 0644 docs/fctrace.1 $(DESTDIR)$(PREFIX)/share/man/man1/fctrace.1
	install -D -m 0644 completions/fctrace.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/fctrace

clean:
	$(Q)rm -rf $(OUTPUT) fctrace $(AGENT)

-include $(wildcard $(OUTPUT)/*/*.d $(OUTPUT)/*/*/*.d $(OUTPUT)/*/*/*/*.d $(OUTPUT)/*/*/*/*/*.d)
