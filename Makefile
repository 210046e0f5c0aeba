# pandia: GNU Makefile.  Everything is built into build/.
#
#   make            build build/pandia, build/libpandia-pin.so, workloads
#   make check      install missing dependencies, build, run every test
#   make demo       install missing dependencies, build, run the demo
#   make bench      print the benchmarks (ratios measured side by side)
#   make install    install into $(DESTDIR)$(PREFIX)
#
#   DEVELOPER=1                 warnings are errors
#   SANITIZE=address,undefined  sanitized build (into build/ as usual)

include config.mk

B ?= build
export B
PKGS := hwloc numa jansson
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
# libpfm4 ships no pkg-config file on Debian; ask anyway, fall back to -lpfm
PFM_LIBS := $(shell $(PKG_CONFIG) --libs libpfm 2>/dev/null || echo -lpfm)
CHECK_CFLAGS := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS := $(shell $(PKG_CONFIG) --libs check 2>/dev/null)

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wno-unused-parameter -Wformat=2 -Wvla \
	-Wno-format-truncation
ifeq ($(DEVELOPER),1)
WARN += -Werror
endif
ifneq ($(SANITIZE),)
SAN := -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
endif

ALL_CFLAGS := -std=gnu11 -D_GNU_SOURCE -DPANDIA_VERSION='"$(VERSION)"' \
	-DPANDIA_DATADIR='"$(DATADIR)"' \
	-I. $(WARN) $(CFLAGS) $(SAN) $(PKG_CFLAGS) -MMD -MP
ALL_LDFLAGS := $(LDFLAGS) $(SAN)
LIBS := $(PKG_LIBS) $(PFM_LIBS) -lpthread -lm

# The library: every .c directly in these directories.  The commands
# (the dispatcher pandia.c and builtin/) link against it and are no
# part of it.
LIB_DIRS := common stress profiler profiler/run predictor predictor/pandia
LIB_SRC := $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(B)/obj/%.o)
CMD_SRC := pandia.c $(wildcard builtin/*.c)
CMD_OBJ := $(CMD_SRC:%.c=$(B)/obj/%.o)

WORKLOAD_SRC := $(wildcard workloads/*.c)
WORKLOADS := $(WORKLOAD_SRC:workloads/%.c=$(B)/workloads/%)
TEST_SRC := $(wildcard tests/check_*.c)
TESTS := $(TEST_SRC:tests/%.c=$(B)/tests/%)
# The test kit (tests/lib): what the Check suites and the helper
# programs share, one archive they all link.
TKIT_SRC := $(wildcard tests/lib/*.c)
TKIT_OBJ := $(TKIT_SRC:%.c=$(B)/obj/%.o)
TKIT := $(B)/tests/libtestkit.a
# mechsim_*.c are parts of mechsim, not programs of their own.
MECHSIM_SRC := $(wildcard tests/progs/mechsim_*.c)
# hybrid.c is an MPI program: built with mpicc, only where there is one
# (scripts/install-deps installs Open MPI; its tests skip without it).
MPI_PROG_SRC := tests/progs/hybrid.c
MPICC ?= $(shell command -v mpicc 2>/dev/null)
TPROG_SRC := $(filter-out $(MECHSIM_SRC) $(MPI_PROG_SRC),\
	$(wildcard tests/progs/*.c))
TPROGS := $(TPROG_SRC:tests/progs/%.c=$(B)/tests/progs/%)
ifneq ($(MPICC),)
TPROGS += $(MPI_PROG_SRC:tests/progs/%.c=$(B)/tests/progs/%)
endif
BENCH_SRC := $(wildcard bench/*.c)
BENCHES := $(BENCH_SRC:bench/%.c=$(B)/bench/%)

all: $(B)/pandia $(B)/libpandia-pin.so $(WORKLOADS)

$(B)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The installed machine descriptions' directory is compiled in: the
# objects that use it are rebuilt when DATADIR changes.
DATADIR_STAMP := $(B)/datadir.txt
$(shell mkdir -p $(B) && [ "$$(cat $(DATADIR_STAMP) 2>/dev/null)" = \
	'$(DATADIR)' ] || echo '$(DATADIR)' >$(DATADIR_STAMP))
$(B)/obj/common/machdir.o $(B)/obj/builtin/hostcheck.o: $(DATADIR_STAMP)

$(B)/libpandia.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

$(B)/pandia: $(CMD_OBJ) $(B)/libpandia.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

# The pinning shim is preloaded into any program, so it is never built
# with the sanitizers: their runtime cannot be preloaded that way.
$(B)/obj/profiler/shim/%.o: profiler/shim/%.c
	@mkdir -p $(@D)
	$(CC) $(filter-out $(SAN),$(ALL_CFLAGS)) -fPIC -c -o $@ $<

$(B)/libpandia-pin.so: $(patsubst %.c,$(B)/obj/%.o,$(wildcard profiler/shim/*.c))
	$(CC) $(LDFLAGS) -shared -o $@ $^ -ldl -lpthread

# Workloads are single-file programs; OpenMP where they use it.
$(B)/workloads/%: workloads/%.c $(wildcard workloads/*.h)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fopenmp -MF $(B)/workloads/$*.d -o $@ $< \
		$(ALL_LDFLAGS) -fopenmp -lpthread -lm

$(B)/obj/tests/lib/%.o: tests/lib/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -c -o $@ $<

$(TKIT): $(TKIT_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

# A suite's main is the kit's (tests/lib/main.c), pulled from the
# archive because the suite has none.
# A suite of a command's file links that file's object too (below).
$(B)/tests/check_%: tests/check_%.c $(TKIT) $(B)/libpandia.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -MF $(B)/tests/check_$*.d -o $@ $< \
		$(filter $(B)/obj/builtin/%.o,$^) $(TKIT) $(B)/libpandia.a $(ALL_LDFLAGS) $(CHECK_LIBS) $(LIBS)

$(B)/tests/check_predict_job $(B)/tests/progs/joblines: \
	$(B)/obj/builtin/predict_job.o

$(B)/tests/check_divisions: $(B)/obj/builtin/predict_ranks_enum.o

$(B)/tests/progs/%: tests/progs/%.c $(TKIT) $(B)/libpandia.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fopenmp -MF $(B)/tests/progs/$*.d -o $@ \
		$(filter %.c,$^) $(filter $(B)/obj/builtin/%.o,$^) \
		$(TKIT) $(B)/libpandia.a $(ALL_LDFLAGS) -fopenmp $(LIBS)

$(B)/tests/progs/mechsim: $(MECHSIM_SRC) tests/progs/mechsim.h

# never sanitized: Open MPI keeps memory at exit that LeakSanitizer
# calls leaks and fails the run on; the program is a workload, not
# pandia's code
$(B)/tests/progs/hybrid: tests/progs/hybrid.c
	@mkdir -p $(@D)
	$(MPICC) $(filter-out $(SAN),$(ALL_CFLAGS)) -fopenmp -MF $(B)/tests/progs/hybrid.d -o $@ \
		$< -fopenmp -lm

$(B)/bench/%: bench/%.c $(B)/libpandia.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MF $(B)/bench/$*.d -o $@ $< \
		$(B)/libpandia.a $(ALL_LDFLAGS) $(LIBS)

deps:
	@scripts/install-deps

# The loaders' fuzzer, built with ASan and UBSan apart from the normal
# build: 'make fuzz' runs it long (FUZZ_N inputs per loader), make
# check runs it short (tests/cli/fuzz.sh).
FUZZ_N ?= 10000
fuzz-build:
	@$(MAKE) --no-print-directory B=$(B)/fuzz \
		SANITIZE=address,undefined $(B)/fuzz/tests/progs/fuzz

fuzz: fuzz-build
	@FUZZ_N=$(FUZZ_N) scripts/fuzz

# The loaders' error paths under valgrind's memcheck, no byte lost
# (scripts/valgrind-loaders; needs valgrind, which make check does not).
valgrind: all
	@scripts/valgrind-loaders -q

# check and demo install what is missing first, then build in a
# second make so that pkg-config sees the freshly installed packages,
# one job a PU unless -j was given (a serial build of check's targets
# took 115 s of a 2-vCPU guest's 10.5 min make check).
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
PAR = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS))
check: deps
	@$(MAKE) --no-print-directory $(PAR) all tests fuzz-build
	@scripts/run-tests

tests: all $(TESTS) $(TPROGS)

demo: deps
	@$(MAKE) --no-print-directory $(PAR) all
	@scripts/demo

# make bench also wants likwid (the reference bandwidth figures)
bench:
	@PANDIA_DEPS_BENCH=1 scripts/install-deps
	@$(MAKE) --no-print-directory all $(BENCHES) $(TPROGS)
	@scripts/bench

# The paper's machines, described from topology + assumed figures.
PAPER_MACHINES := $(patsubst %.topology,%.json,$(wildcard machines/*.topology))
machines: $(PAPER_MACHINES)

machines/%.json: machines/%.topology machines/%.assume.json $(B)/pandia
	$(B)/pandia machine --topology "$$(cat $<)" \
		--assume machines/$*.assume.json -o $@ >/dev/null

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pandia \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7 \
		$(DESTDIR)$(DATADIR)/machines
	install -m 755 $(B)/pandia $(DESTDIR)$(BINDIR)/pandia
	install -m 644 $(B)/libpandia-pin.so $(DESTDIR)$(LIBDIR)/pandia/
	install -m 644 docs/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 docs/man/*.7 $(DESTDIR)$(MANDIR)/man7/
	install -m 644 machines/*.json $(DESTDIR)$(DATADIR)/machines/

clean:
	rm -rf $(B)

.PHONY: all deps check tests demo bench machines install clean fuzz \
	fuzz-build valgrind

-include $(shell find $(B) -name '*.d' 2>/dev/null)
