# delver: a dice and dungeon-procedure bot for Discord, IRC and the console.
#
# make            build ./delver (one line per file; V=1 shows the commands)
# make run        install the missing packages delver needs to build and
#                 run, build, start (console by default; ARGS= passes options)
# make test       install the missing test tools too, then unit tests (plain
#                 and under ASan+UBSan), lint, fuzz smoke runs and
#                 integration tests
# make deps       install every missing package (make deps-run: only those
#                 make run needs)
# make bench      build and run the benchmarks
# make fuzz       build the libFuzzer targets (FUZZ_SECONDS=N make fuzz-run)
# make man        the manual pages into build/man/ (man -l build/man/delver.7)
# make install    PREFIX=/usr/local DESTDIR= SYSCONFDIR=/etc (all honoured);
#                 make uninstall with the same variables reverses it

PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
MANDIR    ?= $(PREFIX)/share/man
SYSCONFDIR ?= /etc
UNITDIR   ?= $(PREFIX)/lib/systemd/system
DOCDIR    ?= $(PREFIX)/share/doc/delver

VERSION   := 0.1.0
CC        ?= cc
PKG_CONFIG ?= pkg-config
PKGS      := libwebsockets libcurl libcjson libuv inih openssl zlib libdeflate \
             libutf8proc libedit sqlite3 libpq

CFLAGS    ?= -O2 -g
WERROR    ?= -Werror
WARN      := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
             -Wformat=2 -Wvla -Wpointer-arith -Wno-unused-parameter $(WERROR)
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
ALL_CPPFLAGS := -D_GNU_SOURCE -DDELVER_VERSION='"$(VERSION)"' \
                -DDELVER_CONFIG_PATH='"$(SYSCONFDIR)/delver/delver.conf"' -I. $(CPPFLAGS)
ALL_CFLAGS   := -std=c11 $(WARN) $(PKG_CFLAGS) $(CFLAGS)
ALL_LDFLAGS  := $(LDFLAGS)
LIBS         := $(PKG_LIBS) -lhttp_parser -lm

# SANITIZE=address,undefined builds everything into its own tree. There the
# unit tests link the code under test as one shared library (compiled
# position-independent): each of ~200 sanitized test programs would
# otherwise carry its own 7-20 MB copy of it, and a build that needs 1.5 GB
# of disk fails where 1 GB is free.
ifneq ($(SANITIZE),)
BUILD     ?= build/sanitize
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all -fPIC
# DELVER_DEBUG: checks too slow for the daemon, made in this build only (a
# kept module text is re-encoded and compared on each use: commands/core/channel.c).
ALL_CPPFLAGS += -DDELVER_DEBUG
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
TEST_LIB  := $(BUILD)/libdelver.so
TEST_LINK := $(TEST_LIB) -Wl,-rpath,'$$ORIGIN/..'
else
BUILD     ?= build/default
TEST_LIB  := $(BUILD)/libdelver.a
TEST_LINK := $(TEST_LIB)
endif

# Quiet by default, as the kernel's build: "  CC      bot/app.o"; warnings
# and errors still appear in full. V=1 prints each command line instead.
V ?= 0
ifeq ($(V),1)
Q   :=
say := @true
shsay := :
else
Q   := @
say := @printf '  %-7s %s\n'
shsay := printf '  %-7s %s\n'
endif

# Every .c under rules/, commands/ and bot/ (one level of subfolders: the
# subsystems) except bot/main.c goes into libdelver.a.
CORE_SRC  := $(wildcard rules/*.c rules/*/*.c commands/*.c commands/*/*.c) \
             $(filter-out bot/main.c,$(wildcard bot/*.c bot/*/*.c))
CORE_OBJ  := $(CORE_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
UNIT_HELP := $(wildcard tests/unit/helpers/*.c)
HELP_OBJ  := $(UNIT_HELP:%.c=$(BUILD)/%.o)
BENCH_SRC := $(wildcard tests/bench/bench_*.c)
BENCH_BIN := $(BENCH_SRC:tests/bench/%.c=$(BUILD)/bench/%)
FUZZ_SRC  := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN  := $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)
MAN_SRC   := $(wildcard bot/man/*.md)
MAN_OUT   := $(MAN_SRC:bot/man/%.md=build/man/%) build/man/delver.8
TOOL_SRC  := $(wildcard tests/tools/*.c)
TOOL_BIN  := $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tools/%)
FUZZ_SECONDS ?= 30

.PHONY: all run test test-beside unit unit-build unit-sanitize integration lint format bench fuzz \
        fuzz-run deps deps-run deps-man install uninstall clean tools man
.DEFAULT_GOAL := all

all: delver

delver: $(BUILD)/delver
	$(Q)cp $< $@

$(BUILD)/delver: $(BUILD)/bot/main.o $(BUILD)/libdelver.a
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/libdelver.a: $(CORE_OBJ)
	$(say) AR $@
	$(Q)rm -f $@
	$(Q)ar rcs $@ $^

$(BUILD)/libdelver.so: $(CORE_OBJ)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -shared -Wl,-soname,libdelver.so -o $@ $^ $(LIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(say) CC $*.o
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# Every unit test links every helper of tests/unit/helpers/; the helpers'
# objects are kept between builds, and a test or helper is rebuilt when a
# header it includes changes.
$(BUILD)/tests/%: tests/unit/%.c $(HELP_OBJ) $(TEST_LIB)
	@mkdir -p $(@D)
	$(say) CCLD $@
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -MMD -MP -MF $@.d -o $@ $< \
		$(HELP_OBJ) $(TEST_LINK) $(LIBS) -lcmocka

.SECONDARY: $(HELP_OBJ)
-include $(HELP_OBJ:.o=.d) $(UNIT_BIN:=.d)

$(BUILD)/bench/%: tests/bench/%.c $(BUILD)/libdelver.a
	@mkdir -p $(@D)
	$(say) CCLD $@
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< \
		$(BUILD)/libdelver.a $(LIBS)

# A tool may keep more sources in tests/tools/<tool>/.
.SECONDEXPANSION:
$(BUILD)/tools/%: tests/tools/%.c $$(wildcard tests/tools/$$*/*.c tests/tools/$$*/*.h) \
		$(BUILD)/libdelver.a
	@mkdir -p $(@D)
	$(say) CCLD $@
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< \
		$(wildcard tests/tools/$*/*.c) $(BUILD)/libdelver.a $(LIBS)

# The benchmarks' launcher applies the shipped unit's system call filter;
# its list is generated from the unit (tests/tools/unit_filter_syscalls.sh)
# whenever the unit changes, so the two cannot drift apart.
$(BUILD)/gen/unit_filter_syscalls.h: systemd/delver.service tests/tools/unit_filter_syscalls.sh
	@mkdir -p $(@D)
	$(say) GEN $@
	$(Q)sh tests/tools/unit_filter_syscalls.sh systemd/delver.service > $@.tmp
	$(Q)mv $@.tmp $@

$(BUILD)/tools/unit_filter: tests/tools/unit_filter.c $(BUILD)/gen/unit_filter_syscalls.h
	@mkdir -p $(@D)
	$(say) CCLD $@
	$(Q)$(CC) $(ALL_CPPFLAGS) -I$(BUILD)/gen $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< \
		$$($(PKG_CONFIG) --libs libseccomp 2>/dev/null || echo -lseccomp)

-include $(CORE_OBJ:.o=.d) $(BUILD)/bot/main.d

# The manual pages: delver(8) is written in roff; the others are Markdown
# sources that lowdown turns into roff, marked for tbl (their tables) and
# set ragged-right, so man shows them without warnings in any width.
# make man also installs what writes and reads them (lowdown, man-db).
man: deps-man $(MAN_OUT)
	@echo "The manual pages are in build/man/; read one with: man -l build/man/delver.7"

build/man/%: bot/man/%.md
	@mkdir -p $(@D)
	@command -v lowdown >/dev/null || \
		{ echo "make: the manual pages need lowdown (apt-get install lowdown)" >&2; exit 1; }
	$(say) MAN $@
	$(Q)lowdown --out-no-smarty -s -Tman -o $@.tmp $< && \
		{ printf "'\\\\\" t\n"; sed '/^\.TH /a .ad l' $@.tmp; } > $@ && rm -f $@.tmp

build/man/delver.8: bot/man/delver.8
	@mkdir -p $(@D)
	$(say) MAN $@
	$(Q)cp $< $@

deps:
	@sh tests/deps.sh test

deps-run:
	@sh tests/deps.sh run

deps-man:
	@sh tests/deps.sh man

# The console as the player gm, the name README.md's tour uses; ARGS may
# name another (--user alice): the last --user counts.
run: deps-run
	@$(MAKE) --no-print-directory -s all
	@./delver --user gm $(ARGS)

tools: $(TOOL_BIN)

# The unit suite: every tests/unit/test_*.c is one cmocka program.
unit: $(UNIT_BIN)
	@sh tests/run-unit.sh $(UNIT_BIN)

unit-sanitize:
	@$(MAKE) --no-print-directory SANITIZE=$(UNIT_SANITIZE) unit

# The unit programs built, not run.
unit-build: $(UNIT_BIN)

integration: all tools $(BUILD)/bench/bench_persist
	@sh tests/run-integration.sh $(BUILD)

# make test builds on every core unless make was given -j itself (its
# builds are most of its time on a small machine).
TEST_J = $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1))
UNIT_SANITIZE := address,undefined,float-cast-overflow

# The whole run needs about TEST_MB megabytes under build/ at its peak (its
# three trees and the integration scripts' state); less free space is worth
# a warning before the build rather than a linker's "No space left" later.
TEST_MB = 1000

test: deps
	@mkdir -p build && rm -f build/results.txt
	@free=$$(df -Pk build | awk 'NR==2 { print int($$4 / 1024) }'); \
	[ -z "$$free" ] || [ "$$free" -ge $(TEST_MB) ] || \
	echo "make test: warning: $$free MB free under build/, and a whole run needs about $(TEST_MB) MB; it may fail for lack of space" >&2
	@$(MAKE) --no-print-directory $(TEST_J) all tools $(BUILD)/bench/bench_persist unit-build
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory $(TEST_J) unit
	@INTEGRATION_BESIDE='$(MAKE) --no-print-directory $(TEST_J) test-beside' \
		$(MAKE) --no-print-directory integration
	@$(MAKE) --no-print-directory $(TEST_J) unit-sanitize
	@sh tests/summary.sh

# What make test runs beside the integration scripts, on the CPU they
# leave idle (tests/run-integration.sh): work with no clock to meet.
test-beside:
	@$(MAKE) --no-print-directory SANITIZE=$(UNIT_SANITIZE) unit-build
	@$(MAKE) --no-print-directory fuzz-run

lint:
	@sh tests/lint.sh

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

# Every benchmark runs under the shipped unit's system call filter
# (tests/tools/unit_filter), as delver does in production. The PostgreSQL
# server that bench_store_pg uses is not delver: it is started here, outside
# the filter, and stopped (by its PID) whatever the benchmarks do.
bench: all $(BENCH_BIN) tools
	@pg=$$(mktemp -d /tmp/delver-bench-pg-XXXXXX) || exit 1; \
	trap 'sh tests/tools/pg_cluster.sh stop "$$pg"; rm -rf "$$pg"' EXIT; \
	DELVER_BENCH_PG=$$(sh tests/tools/pg_cluster.sh start "$$pg") || exit 1; \
	export DELVER_BENCH_PG; \
	$(BUILD)/tools/unit_filter true || exit 1; \
	for b in $(BENCH_BIN); do echo "== $$b (unit's syscall filter)"; \
		$(BUILD)/tools/unit_filter --quiet $$b || exit 1; done; \
	for s in tests/bench/*.sh; do [ -f "$$s" ] || continue; echo "== $$s (unit's syscall filter)"; \
		$(BUILD)/tools/unit_filter --quiet sh "$$s" $(BUILD) || exit 1; done

# libFuzzer targets are built with clang whatever CC is.
# The code under test is compiled once with coverage hooks but without
# libFuzzer's main (fuzzer-no-link); each target then links against it.
FUZZ_CFLAGS := -std=c11 -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
               -D_GNU_SOURCE -DFUZZING -DDELVER_VERSION='"$(VERSION)"' -I. $(PKG_CFLAGS)
FUZZ_OBJ  := $(CORE_SRC:%.c=build/fuzz/obj/%.o)
build/fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	$(say) CC $@
	$(Q)clang $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<
build/fuzz/libdelver.a: $(FUZZ_OBJ)
	$(say) AR $@
	$(Q)rm -f $@
	$(Q)ar rcs $@ $^
build/fuzz/%: tests/fuzz/%.c build/fuzz/libdelver.a
	@mkdir -p $(@D)
	$(say) CCLD $@
	$(Q)clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< build/fuzz/libdelver.a $(LIBS)
-include $(FUZZ_OBJ:.o=.d)

fuzz: $(FUZZ_BIN)

fuzz-run: fuzz
	@sh tests/run-fuzz.sh $(FUZZ_SECONDS) $(FUZZ_BIN)

# The units get the installed paths; /etc/delver is created for the
# configuration, which uninstall leaves (and the directory, unless empty).
UNITS := delver.service delver@.service
install: all $(MAN_OUT)
	$(Q)install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SYSCONFDIR)/delver $(DESTDIR)$(UNITDIR) \
		$(DESTDIR)$(DOCDIR)
	$(say) INSTALL $(DESTDIR)$(BINDIR)/delver
	$(Q)install -m 0755 delver $(DESTDIR)$(BINDIR)/delver
	$(Q)for m in $(MAN_OUT); do \
		d=$(DESTDIR)$(MANDIR)/man$${m##*.}; $(shsay) INSTALL "$$d/$${m##*/}"; \
		install -d $$d && install -m 0644 $$m $$d/ || exit 1; \
	done
	$(say) INSTALL $(DESTDIR)$(DOCDIR)/delver.conf.example
	$(Q)install -m 0644 config/delver.conf.example $(DESTDIR)$(DOCDIR)/delver.conf.example
	$(Q)for u in $(UNITS); do \
		$(shsay) INSTALL $(DESTDIR)$(UNITDIR)/$$u; \
		sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
			systemd/$$u > $(DESTDIR)$(UNITDIR)/$$u && \
		chmod 0644 $(DESTDIR)$(UNITDIR)/$$u || exit 1; \
	done

uninstall:
	$(Q)for f in $(addprefix $(DESTDIR)$(MANDIR)/,$(foreach m,$(notdir $(MAN_OUT)),man$(subst .,,$(suffix $(m)))/$(m))) \
		$(DESTDIR)$(BINDIR)/delver $(DESTDIR)$(DOCDIR)/delver.conf.example \
		$(UNITS:%=$(DESTDIR)$(UNITDIR)/%); do \
		[ ! -e "$$f" ] || { $(shsay) RM "$$f"; rm -f "$$f"; }; \
	done
	$(Q)rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null || true
	$(Q)rmdir $(DESTDIR)$(SYSCONFDIR)/delver 2>/dev/null || true

clean:
	rm -rf build delver
