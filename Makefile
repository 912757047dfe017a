# Build, boot and test the teaching kernel.
#
#   make            kernel, userland, host tools and disk images
#   make qemu       boot to a root shell on the serial console
#   make qemu-gdb   the same, waiting for GDB; then "make gdb" in another terminal
#   make crashimage a crashed LFS for doc/lfs-recovery.md (build/crashed-lfs.img)
#   make test       everything that must pass
#   make crashtest  LFS crash recovery at every write boundary (tests/crash)
#   make stress     the reliability tools run longer: concurrency stress,
#                   damaged images, the system-call fuzzer
#   make bench      benchmarks on the timed disk, then make report
#   make report     doc/results.md, the thesis beside us, from build/bench/*.json
#   make deps       install the Debian packages the project needs
#
# Variables: DISK=hp97560|rz55|m2361a|none (the scratch disk sd1's drive
# model), ROOTDISK (sd0's, default none), MEM (guest MB), KARGS (kernel
# command line), ACCEL=tcg|kvm, SD1=IMG (boot on a copy of IMG as sd1).
# make stress: STRESS_SECONDS (120), STRESS_SEED (1), DAMAGE_SEEDS (400
# random images per layout), FUZZ_CALLS (30000).

B	:= build
GEN	:= $(B)/gen
PY	:= /usr/bin/python3
CC	:= gcc
LD	:= ld -m elf_i386
GCCINC	:= $(shell $(CC) -m32 -print-file-name=include)
LIBGCC	:= $(shell $(CC) -m32 -print-libgcc-file-name)

# Frame pointers keep panic backtraces and GDB's "bt" honest.  With
# -Wmissing-prototypes a function is either static or declared in its
# subsystem's header, so a caller and the definition cannot disagree.
COMMON	:= -m32 -march=i686 -O2 -g -Wall -Wmissing-prototypes \
	   -ffreestanding -fno-pic -fno-pie -fno-stack-protector -fno-builtin \
	   -fno-omit-frame-pointer -fno-asynchronous-unwind-tables -nostdinc \
	   -isystem $(GCCINC) -MMD -MP
# The kernel also keeps -Wsign-compare quiet: a size compared with a
# negative sentinel is a bug that hides well.
KCFLAGS	:= $(COMMON) -Wsign-compare -I. -I$(GEN) -DKERNEL
UCFLAGS	:= $(COMMON) -isystem lib/libc/include -I. -I$(GEN)
HCFLAGS	:= -O2 -g -Wall -Wmissing-prototypes -iquote . -DHOSTBUILD

DISK	?= hp97560
ROOTDISK ?= none
MEM	?= 64
export DISK ROOTDISK MEM KARGS ACCEL

all: deps kernel userland images

# ---------------------------------------------------------------- deps
# libtcc-dev:i386 is the guest's C compiler (usr.bin/cc), an i386 package:
# dpkg must first accept that architecture.
DEBS := qemu-system-x86 gcc-multilib gdb expect nbdkit nbdkit-plugin-python \
	python3-pytest python3-pytest-xdist python3-pexpect python3-matplotlib \
	libtcc-dev:i386 mandoc
debs:
	@SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	dpkg --print-foreign-architectures | grep -qx i386 || $$SUDO dpkg --add-architecture i386; \
	missing=""; for p in $(DEBS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $$SUDO apt-get update -qq || echo "apt-get update failed; installing from the lists there are"; \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

# Debian's busybox-static for i386, whose vi and awk the image carries
# (README, "Whose tools"): downloaded once into dl/ (not installed on the
# host: apt-get download, after apt-get update if the lists lack it, and
# dpkg-deb -x), by make deps or the first image.  The stamp is made only when that worked: offline, the image is
# built without vi and awk, tests/test_busybox.py skips, and each make
# tries again (and makes the image again).
BBDEB	:= busybox-static:i386
BBDIR	:= dl/busybox-static
BUSYBOX	:= $(BBDIR)/bin/busybox
BBSTAMP	:= $(BBDIR)/.stamp
deps: debs $(BBSTAMP)
$(BBSTAMP): | debs
	@SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; t=$$(mktemp -d) && \
	get() { (cd $$t && apt-get download -q $(BBDEB)) > $$t/log 2>&1; }; \
	if { get || { $$SUDO apt-get update -qq >/dev/null 2>&1; get; }; } && \
	   dpkg-deb -x $$t/*.deb $$t/x; then \
	  rm -rf $(BBDIR) && mkdir -p dl && cp $$t/*.deb dl/ && \
	  mv $$t/x $(BBDIR) && touch $@; \
	else echo "$(BBDEB): not downloaded, the image has no vi or awk:"; \
	  tail -1 $$t/log; fi; rm -rf $$t

# ---------------------------------------------------------------- syscalls
# One list, kern/syscalls.master, makes the numbers, the argument
# structures, the kernel's table and libc's stubs (kern/makesyscalls.py).
SYSGEN	:= $(GEN)/sys/syscall.h $(GEN)/kern/syscallargs.h \
	   $(GEN)/kern/init_sysent.c $(GEN)/lib/libc/sys/syscalls.S
$(SYSGEN) &: kern/syscalls.master kern/makesyscalls.py
	$(PY) kern/makesyscalls.py kern/syscalls.master $(GEN)

# ---------------------------------------------------------------- kernel
KSRCS	:= $(filter-out lfs/lfs_notxn.c,$(wildcard kern/*.c kern/i386/*.c \
	   kern/dev/*.c ufs/*.c ffs/*.c lfs/*.c compat/linux/*.c conf/*.c)) \
	   kern/i386/locore.S kern/i386/copy.S
KOBJS	:= $(patsubst %,$(B)/k/%.o,$(basename $(KSRCS))) \
	   $(B)/k/gen/kern/init_sysent.o

# The generated headers come first: the .d files name them only after a
# first compile.
$(B)/k/%.o: %.c | $(SYSGEN)
	@mkdir -p $(@D)
	$(CC) $(KCFLAGS) -c $< -o $@
$(B)/k/gen/%.o: $(GEN)/%.c
	@mkdir -p $(@D)
	$(CC) $(KCFLAGS) -c $< -o $@
# Students step through roll-forward in GDB: keep its locals visible.
$(B)/k/lfs/lfs_rfw.o $(B)/k/lfs/lfs_rfwdata.o: KCFLAGS += -Og
# ... and the lock table's deadlock detector (qemu/gdb_txn.py's "txn"),
# and a commit (doc/transactions.md walks through both): every part of
# the transactions (TXNSRCS).
TXNSRCS	:= lfs/lfs_txn.c lfs/lfs_txnfile.c lfs/lfs_txncommit.c \
	   lfs/lfs_txnundo.c lfs/lfs_txnlock.c lfs/lfs_txndelta.c
$(patsubst %.c,$(B)/k/%.o,$(TXNSRCS)): KCFLAGS += -Og
$(B)/k/%.o: %.S
	@mkdir -p $(@D)
	$(CC) $(KCFLAGS) -c $< -o $@

# Two links: the second adds the symbol table for backtraces (kern/ksyms.c).
# $(call link_kernel,OUTPUT,OBJECTS)
define link_kernel
	$(PY) kern/gen_ksyms.py < /dev/null > $(1).ksyms0.S
	$(CC) $(KCFLAGS) -c $(1).ksyms0.S -o $(1).ksyms0.o
	$(LD) -T kern/i386/kernel.ld -o $(1).tmp $(2) $(1).ksyms0.o $(LIBGCC)
	nm -n $(1).tmp | $(PY) kern/gen_ksyms.py > $(1).ksyms.S
	$(CC) $(KCFLAGS) -c $(1).ksyms.S -o $(1).ksyms.o
	$(LD) -T kern/i386/kernel.ld -o $(1) $(2) $(1).ksyms.o $(LIBGCC)
endef
$(B)/kernel: $(KOBJS) kern/i386/kernel.ld kern/gen_ksyms.py
	$(call link_kernel,$@,$(KOBJS))

# The same kernel with the transaction code compiled out (-DNOTXN;
# lfs/lfs_notxn.c stands in), for bench/txn.py's "no cost to others".
NOTXN_OBJS := $(patsubst $(B)/k/%,$(B)/k-notxn/%,$(filter-out \
	   $(patsubst %.c,$(B)/k/%.o,$(TXNSRCS)),$(KOBJS))) \
	   $(B)/k-notxn/lfs/lfs_notxn.o
$(B)/k-notxn/%.o: %.c | $(SYSGEN)
	@mkdir -p $(@D)
	$(CC) $(KCFLAGS) -DNOTXN -c $< -o $@
$(B)/k-notxn/gen/%.o: $(GEN)/%.c
	@mkdir -p $(@D)
	$(CC) $(KCFLAGS) -DNOTXN -c $< -o $@
$(B)/k-notxn/%.o: %.S
	@mkdir -p $(@D)
	$(CC) $(KCFLAGS) -DNOTXN -c $< -o $@
$(B)/kernel-notxn: $(NOTXN_OBJS) kern/i386/kernel.ld kern/gen_ksyms.py
	$(call link_kernel,$@,$(NOTXN_OBJS))

kernel: $(B)/kernel

# ---------------------------------------------------------------- userland
LIBC_SRCS := $(shell find lib/libc -path lib/libc/include -prune -o \( -name '*.c' -o -name '*.S' \) -print 2>/dev/null)
# printf's engine is the kernel's too (kern/subr_format.c).
LIBC_OBJS := $(patsubst %,$(B)/u/%.o,$(basename $(LIBC_SRCS))) \
	     $(B)/u/kern/subr_format.o $(B)/u/gen/lib/libc/sys/syscalls.o

$(B)/u/%.o: %.c | $(SYSGEN)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -c $< -o $@
$(B)/u/%.o: %.S | $(SYSGEN)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -c $< -o $@
$(B)/u/gen/%.o: $(GEN)/%.S
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -c $< -o $@

$(B)/lib/libc.a: $(LIBC_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^
# The record library and transaction manager (lib/libdb/db.h), linked
# into the programs named in DBPROGS.
LIBDB_OBJS := $(patsubst %,$(B)/u/%.o,$(basename $(wildcard lib/libdb/*.c)))
$(B)/lib/libdb.a: $(LIBDB_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^
DBPROGS := bin/tpcb bin/db_recover bin/oo1 bin/wisc

$(B)/lib/crt0.o: $(B)/u/lib/csu/crt0.o
	@mkdir -p $(@D)
	cp $< $@

# The sources the file-system tools share, in each guest build (usr.sbin,
# libexec) and each host build (usr.sbin); tests/host/toolbuild.py reads
# this line too.
TOOLSHARED := ffs/ffs_subr.c lfs/lfs_subr.c lib/fsutil/fsutil.c lib/fsutil/partition.c lib/fsutil/dinode.c lib/fsutil/lfs_read.c
TOOLOBJS := $(patsubst %.c,$(B)/u/%.o,$(TOOLSHARED))

# The shell's built-in echo, printf, test, pwd and kill are the programs' own
# sources, compiled a second time with -DSHELL (which leaves out main).
SHBLTINS := echo printf test pwd kill
SHBLTINOBJS := $(patsubst %,$(B)/u/bin/sh/bltin-%.o,$(SHBLTINS))
define shbltin
$(B)/u/bin/sh/bltin-$(1).o: bin/$(1)/$(1).c | $(SYSGEN)
	@mkdir -p $$(@D)
	$(CC) $(UCFLAGS) -DSHELL -c $$< -o $$@
endef
$(foreach p,$(SHBLTINS),$(eval $(call shbltin,$(p))))

# Each program is a folder: bin/NAME -> /bin/NAME, sbin/NAME -> /sbin/NAME,
# usr.sbin/NAME -> /usr/sbin/NAME (and a host build in $(B)/host/NAME),
# libexec/NAME -> /usr/libexec/NAME (daemons other programs start; guest
# only), tests/prog/NAME -> /usr/tests/NAME (in-guest test programs).
PROGDIRS := $(patsubst %/,%,$(wildcard bin/*/ sbin/*/ usr.sbin/*/ libexec/*/ tests/prog/*/))
define prog
$(2): $$(patsubst %,$(B)/u/%.o,$$(basename $$(wildcard $(1)/*.c))) $(if $(filter usr.sbin/% libexec/%,$(1)),$(TOOLOBJS)) $(if $(filter tests/prog/%,$(1)),$(B)/u/tests/lib/check.o) $(if $(filter bin/sh,$(1)),$(SHBLTINOBJS)) $(B)/lib/crt0.o $(if $(filter $(DBPROGS),$(1)),$(B)/lib/libdb.a) $(B)/lib/libc.a lib/user.ld
	@mkdir -p $$(@D)
	$(LD) -static -nostdlib -T lib/user.ld -o $$@ $(B)/lib/crt0.o $$(filter %.o,$$(filter-out $(B)/lib/crt0.o,$$^)) $(if $(filter $(DBPROGS),$(1)),$(B)/lib/libdb.a) $(B)/lib/libc.a $(LIBGCC)
	@if [ -f $(1)/LINKS ]; then for l in $$$$(cat $(1)/LINKS); do ln -f $$@ $$(@D)/$$$$l; done; fi
PROGS += $(2)
endef
$(foreach d,$(PROGDIRS),$(eval $(call prog,$(d),$(B)/root/$(subst libexec/,usr/libexec/,$(subst tests/prog,usr/tests,$(subst usr.sbin,usr/sbin,$(d)))))))

HOSTTOOLS := $(patsubst usr.sbin/%,$(B)/host/%,$(wildcard usr.sbin/*))
$(B)/host/%: usr.sbin/%/*.c $(TOOLSHARED) $(wildcard sys/*.h sys/ufs/*.h lib/fsutil/*.h)
	@mkdir -p $(@D)
	$(CC) $(HCFLAGS) -o $@ $(wildcard usr.sbin/$*/*.c) $(TOOLSHARED)

# The guest's C compiler (usr.bin/cc): a Linux i386 program, linked on the
# host against Debian's libtcc and glibc, that runs through the kernel's
# Linux compatibility layer (compat/linux).  With it go what it compiles
# and links against: the headers as /usr/include, tcc's own headers,
# crt0.o, libc.a and gcc's libgcc.a (64-bit division and the like; without
# debug sections, which tcc would only copy).
TCCLIB	:= /usr/lib/i386-linux-gnu/libtcc.a
# tcc ignores what its output's fwrite, fputc and fclose answer: cc wraps
# them to see a failed write (usr.bin/cc/cc.c).
CCWRAP	:= -Wl,--wrap=fwrite,--wrap=fputc,--wrap=fclose
$(B)/root/usr/bin/cc: usr.bin/cc/cc.c $(TCCLIB)
	@mkdir -p $(@D)
	gcc -m32 -static -O2 -Wall $(CCWRAP) -o $@ $< -ltcc -ldl 2>&1 | grep -v "dlopen\|libtcc.o): in function" || true
	@test -x $@
CCFILES	:= $(B)/root/usr/bin/cc $(B)/root/usr/lib/crt0.o $(B)/root/usr/lib/libc.a \
	   $(B)/root/usr/lib/libgcc.a $(B)/root/usr/include/.stamp
$(B)/root/usr/lib/crt0.o: $(B)/lib/crt0.o
	@mkdir -p $(@D)
	cp $< $@
$(B)/root/usr/lib/libc.a: $(B)/lib/libc.a
	@mkdir -p $(@D)
	objcopy --strip-debug $< $@
$(B)/root/usr/lib/libgcc.a: $(LIBGCC)
	@mkdir -p $(@D)
	objcopy --strip-debug $< $@
$(B)/root/usr/include/.stamp: $(wildcard lib/libc/include/*.h sys/*.h sys/ufs/*.h usr.bin/cc/include/*.h)
	rm -rf $(B)/root/usr/include $(B)/root/usr/lib/tcc
	mkdir -p $(B)/root/usr/include/sys $(B)/root/usr/lib/tcc/include
	cp lib/libc/include/*.h $(B)/root/usr/include/
	cp -r sys/. $(B)/root/usr/include/sys/
	cp usr.bin/cc/include/*.h $(B)/root/usr/lib/tcc/include/
	touch $@

# Test material for the compiler and the Linux layer: tests/cc (sources and
# makefiles, /usr/tests/cc) and tests/linux (Linux programs built with the
# host's gcc and glibc, /usr/tests/NAME).
LINUXTESTS := $(patsubst tests/linux/%.c,$(B)/root/usr/tests/%,$(wildcard tests/linux/*.c))
$(B)/root/usr/tests/%: tests/linux/%.c
	@mkdir -p $(@D)
	gcc -m32 -static -O2 -Wall -o $@ $<
# linuxraw has a file per section (tests/linux/linuxraw/main.c lists them).
LINUXTESTS += $(B)/root/usr/tests/linuxraw
$(B)/root/usr/tests/linuxraw: $(wildcard tests/linux/linuxraw/*.[ch])
	@mkdir -p $(@D)
	gcc -m32 -static -O2 -Wall -o $@ $(filter %.c,$^)
$(B)/root/usr/tests/cc/.stamp: $(shell find tests/cc -type f)
	rm -rf $(@D) && mkdir -p $(@D)
	cp -r tests/cc/. $(@D)/
	touch $@
CCFILES	+= $(LINUXTESTS) $(B)/root/usr/tests/cc/.stamp

# The Andrew benchmark's frozen source tree and phase scripts (bench/andrew),
# as /usr/share/andrew.
$(B)/root/usr/share/andrew/.stamp: $(shell find bench/andrew -type f)
	rm -rf $(@D) && mkdir -p $(@D)
	cp -r bench/andrew/tree bench/andrew/*.sh $(@D)/
	touch $@
CCFILES	+= $(B)/root/usr/share/andrew/.stamp

# The manual (share/man): mdoc sources, share/man/manN/NAME.N, formatted
# on the host by Debian's mandoc into catpages, /usr/share/man/catN/NAME.0,
# with the overstrike (X^HX bold, _^HX underline) taken out: the console
# shows plain text.  A page with several names in its NAME section
# (txn_begin, txn_commit, txn_abort) is linked under each; the whatis
# file is every page's NAME line, for man -k (share/man/makewhatis.py).
MANSRCS	:= $(wildcard share/man/man1/*.1 share/man/man2/*.2 share/man/man3/*.3 \
	   share/man/man8/*.8)
CATPAGES := $(foreach f,$(MANSRCS),$(B)/root/usr/share/man/cat$(subst .,,$(suffix $(f)))/$(basename $(notdir $(f))).0)
define manrule
$(B)/root/usr/share/man/cat$(1)/%.0: share/man/man$(1)/%.$(1)
	@mkdir -p $$(@D)
	@mandoc -T lint -W warning $$<
	mandoc -T ascii -I os=4.4BSD-LFS $$< | sed 's/.\x08//g' > $$@.tmp && mv $$@.tmp $$@
endef
$(foreach n,1 2 3 8,$(eval $(call manrule,$(n))))
$(B)/root/usr/share/man/whatis: $(CATPAGES) share/man/makewhatis.py
	$(PY) share/man/makewhatis.py $(B)/root/usr/share/man share/man > $@.tmp && mv $@.tmp $@
CCFILES	+= $(CATPAGES) $(B)/root/usr/share/man/whatis

userland: $(PROGS) $(CCFILES)
hosttools: $(HOSTTOOLS)

# ---------------------------------------------------------------- images
# sd0: the root file system, built on the host from $(B)/root, as xv6's
# mkfs does.  sd1: the scratch disk, blank, the size of the drive model.
ROOTSIZE := 131072
# /etc/disktab: the drive profiles' geometry and rpm (qemu/disktab.py).
$(B)/root/etc/disktab: qemu/disktab.py qemu/drivemodel.py
	mkdir -p $(@D)
	$(PY) -m qemu.disktab > $@.tmp && mv $@.tmp $@
# Debian's busybox goes in as /usr/bin/busybox, with vi and awk as hard
# links to it: busybox runs the applet that argv[0] names.
$(B)/sd0.img: $(PROGS) $(CCFILES) $(HOSTTOOLS) $(wildcard etc/*) $(B)/root/etc/disktab \
	    $(BBSTAMP)
	rm -rf $(B)/rootfs && mkdir -p $(B)/rootfs
	cp -a $(B)/root/. $(B)/rootfs/
	if [ -x $(BUSYBOX) ]; then mkdir -p $(B)/rootfs/usr/bin && \
	  cp $(BUSYBOX) $(B)/rootfs/usr/bin/busybox && \
	  ln $(B)/rootfs/usr/bin/busybox $(B)/rootfs/usr/bin/vi && \
	  ln $(B)/rootfs/usr/bin/busybox $(B)/rootfs/usr/bin/awk; fi
	mkdir -p $(B)/rootfs/etc $(B)/rootfs/tmp $(B)/rootfs/mnt $(B)/rootfs/root $(B)/rootfs/var/run
	$(if $(filter-out etc/fs.proto,$(wildcard etc/*)),cp -a $(filter-out etc/fs.proto,$(wildcard etc/*)) $(B)/rootfs/etc/)
	rm -f $@.tmp && truncate -s $$(( $(ROOTSIZE) * 512 )) $@.tmp
	$(B)/host/disklabel -w $@.tmp > /dev/null
	$(B)/host/newfs -D $(B)/rootfs -P etc/fs.proto $@.tmp > /dev/null
	mv $@.tmp $@
$(B)/sd1.img: qemu/disk.py qemu/drivemodel.py
	$(PY) -c 'from qemu import disk; disk.make_image("$@", "$(DISK)")'

images: $(B)/sd0.img $(B)/sd1.img

# ---------------------------------------------------------------- run
# One launcher, python3 -m qemu (qemu/__main__.py), run from the top of the
# tree: it is the root of the Python packages qemu, tests and bench.
RUNARGS	:= $(if $(SD1),--sd1-from $(SD1))

qemu: all
	$(PY) -m qemu boot $(RUNARGS)

qemu-gdb: all
	$(PY) -m qemu boot --gdb $(RUNARGS)

# Power cut in the middle of a directory operation, after a checkpoint
# and a few partial segments (qemu/crashimage.py says what it holds).
crashimage: all
	$(PY) -m qemu crashimage $(B)/crashed-lfs.img

# In a second terminal: GDB with the generated .gdbinit.  Naming it with -x
# loads it whatever GDB's auto-load safe-path says.
gdb:
	gdb -q -nx -x .gdbinit

# ---------------------------------------------------------------- test
# Two test files at a time (pytest-xdist), one per core: a guest is one
# QEMU thread, so two run side by side in about half the time.  A file's
# tests stay together, in order (--dist loadfile).  TESTJOBS=1: one.
TESTJOBS ?= 2
test: all
	$(PY) -m pytest -q -ra -n $(TESTJOBS) --dist loadfile tests

# A power cut at every write boundary of the LFS workloads (tests/crash).
crashtest: all
	$(PY) -m qemu crashtest

# The make-test runs of tests/test_stress.py, test_damage.py and
# test_fuzz.py, longer.
STRESS_SECONDS ?= 120
STRESS_SEED ?= 1
DAMAGE_SEEDS ?= 400
FUZZ_CALLS ?= 30000
stress: all
	STRESS_SECONDS=$(STRESS_SECONDS) STRESS_SEED=$(STRESS_SEED) \
	DAMAGE_SEEDS=$(DAMAGE_SEEDS) \
	FUZZ_CALLS=$(FUZZ_CALLS) $(PY) -m pytest -q -ra tests/test_stress.py \
	    tests/test_damage.py tests/test_fuzz.py

bench: all
	$(PY) -m qemu bench $(if $(THESIS),--thesis)

# Host-side only: reads what make bench (or one driver) left in build/bench.
report:
	$(PY) -m bench.report

# The course (labs/README.md): a lab's student tree, its grade, and the
# check that every lab fails stripped and passes whole.
LAB ?=
labs:
	@$(PY) -m labs.lab list
lab:
	@test -n "$(LAB)" || { echo "make lab LAB=name (make labs lists them)"; exit 2; }
	$(PY) -m labs.lab strip $(LAB) $(if $(LABDIR),--out $(LABDIR))
grade:
	@test -n "$(LAB)" || { echo "make grade LAB=name (make labs lists them)"; exit 2; }
	$(PY) -m labs.lab grade $(LAB) --tree .
labcheck:
	$(PY) -m labs.lab check

# The layers point one way (README, "Layers"): kern/ compiles seeing only
# itself and sys/, ufs/ only kern/, sys/ and itself; each file compiled
# against a tree of just those directories.
LAYERS_KERN := kern sys
LAYERS_UFS  := kern sys ufs
layers: | $(SYSGEN)
	@rm -rf $(B)/layers && mkdir -p $(B)/layers/kern $(B)/layers/ufs
	@for d in $(LAYERS_KERN); do ln -s $(CURDIR)/$$d $(B)/layers/kern/$$d; done
	@for d in $(LAYERS_UFS); do ln -s $(CURDIR)/$$d $(B)/layers/ufs/$$d; done
	@for f in $(wildcard kern/*.c kern/i386/*.c kern/dev/*.c); do \
	  $(CC) $(filter-out -I. -MMD -MP,$(KCFLAGS)) -I$(B)/layers/kern -fsyntax-only $$f || \
	  { echo "layers: $$f reaches outside $(LAYERS_KERN)"; exit 1; }; done
	@for f in $(wildcard ufs/*.c); do \
	  $(CC) $(filter-out -I. -MMD -MP,$(KCFLAGS)) -I$(B)/layers/ufs -fsyntax-only $$f || \
	  { echo "layers: $$f reaches outside $(LAYERS_UFS)"; exit 1; }; done
	@echo "layers: kern/ sees only $(LAYERS_KERN); ufs/ only $(LAYERS_UFS)"

clean:
	rm -rf $(B) .gdbinit

# make clean keeps dl/, the downloads; distclean drops them too.
distclean: clean
	rm -rf dl

.PHONY: all deps debs distclean kernel userland hosttools images qemu qemu-gdb gdb crashimage \
	test crashtest stress bench report layers labs lab grade labcheck clean
-include $(shell find $(B) -name '*.d' 2>/dev/null)
