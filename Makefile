# Build, boot and test the teaching kernel.
#
#   make            kernel, userland, host tools and disk images
#   make qemu       boot to a root shell on the serial console
#   make qemu-gdb   the same, waiting for GDB; then "make gdb" in another terminal
#   make crashimage a crashed LFS for doc/lfs-recovery.md (build/crashed-lfs.img)
#   make test       everything that must pass
#   make crashtest  LFS crash recovery at every write boundary (tests/crash)
#   make bench      benchmarks on the timed disk
#   make deps       install the Debian packages the project needs
#
# Variables: DISK=hp97560|rz55|m2361a|none (the scratch disk sd1's drive
# model), ROOTDISK (sd0's, default none), MEM (guest MB), KARGS (kernel
# command line), ACCEL=tcg|kvm, SD1=IMG (boot on a copy of IMG as sd1).

B	:= build
PY	:= /usr/bin/python3
CC	:= gcc
LD	:= ld -m elf_i386
GCCINC	:= $(shell $(CC) -m32 -print-file-name=include)
LIBGCC	:= $(shell $(CC) -m32 -print-libgcc-file-name)

# Frame pointers keep panic backtraces and GDB's "bt" honest.
COMMON	:= -m32 -march=i686 -O2 -g -Wall -ffreestanding -fno-pic -fno-pie \
	   -fno-stack-protector -fno-builtin -fno-omit-frame-pointer \
	   -fno-asynchronous-unwind-tables -nostdinc -isystem $(GCCINC) -MMD -MP
KCFLAGS	:= $(COMMON) -I. -DKERNEL
UCFLAGS	:= $(COMMON) -isystem lib/libc/include -I.
HCFLAGS	:= -O2 -g -Wall -iquote . -DHOSTBUILD

DISK	?= hp97560
ROOTDISK ?= none
MEM	?= 64
export DISK ROOTDISK MEM KARGS ACCEL

all: deps kernel userland images

# ---------------------------------------------------------------- deps
DEBS := qemu-system-x86 gcc-multilib gdb expect nbdkit nbdkit-plugin-python \
	python3-pytest python3-pexpect python3-matplotlib
deps:
	@missing=""; for p in $(DEBS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

# ---------------------------------------------------------------- kernel
KSRCS	:= $(wildcard kern/*.c kern/i386/*.c kern/dev/*.c ufs/*.c ffs/*.c lfs/*.c) \
	   kern/i386/locore.S kern/i386/copy.S
KOBJS	:= $(patsubst %,$(B)/k/%.o,$(basename $(KSRCS)))

$(B)/k/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(KCFLAGS) -c $< -o $@
# Students step through roll-forward in GDB: keep its locals visible.
$(B)/k/lfs/lfs_rfw.o: KCFLAGS += -Og
$(B)/k/%.o: %.S
	@mkdir -p $(@D)
	$(CC) $(KCFLAGS) -c $< -o $@

# Two links: the second adds the symbol table for backtraces (kern/ksyms.c).
$(B)/kernel: $(KOBJS) kern/i386/kernel.ld kern/gen_ksyms.py
	$(PY) kern/gen_ksyms.py < /dev/null > $(B)/ksyms0.S
	$(CC) $(KCFLAGS) -c $(B)/ksyms0.S -o $(B)/ksyms0.o
	$(LD) -T kern/i386/kernel.ld -o $(B)/kernel.tmp $(KOBJS) $(B)/ksyms0.o $(LIBGCC)
	nm -n $(B)/kernel.tmp | $(PY) kern/gen_ksyms.py > $(B)/ksyms.S
	$(CC) $(KCFLAGS) -c $(B)/ksyms.S -o $(B)/ksyms.o
	$(LD) -T kern/i386/kernel.ld -o $@ $(KOBJS) $(B)/ksyms.o $(LIBGCC)

kernel: $(B)/kernel

# ---------------------------------------------------------------- userland
LIBC_SRCS := $(shell find lib/libc -path lib/libc/include -prune -o \( -name '*.c' -o -name '*.S' \) -print 2>/dev/null)
LIBC_OBJS := $(patsubst %,$(B)/u/%.o,$(basename $(LIBC_SRCS)))

$(B)/u/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -c $< -o $@
$(B)/u/%.o: %.S
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
DBPROGS := bin/tpcb bin/db_recover

$(B)/lib/crt0.o: $(B)/u/lib/csu/crt0.o
	@mkdir -p $(@D)
	cp $< $@

# Each program is a folder: bin/NAME -> /bin/NAME, sbin/NAME -> /sbin/NAME,
# usr.sbin/NAME -> /usr/sbin/NAME (and a host build in $(B)/host/NAME),
# libexec/NAME -> /usr/libexec/NAME (daemons other programs start; guest
# only), tests/prog/NAME -> /usr/tests/NAME (in-guest test programs).
PROGDIRS := $(patsubst %/,%,$(wildcard bin/*/ sbin/*/ usr.sbin/*/ libexec/*/ tests/prog/*/))
define prog
$(2): $$(patsubst %,$(B)/u/%.o,$$(basename $$(wildcard $(1)/*.c))) $(if $(filter usr.sbin/% libexec/%,$(1)),$(B)/u/ffs/ffs_subr.o $(B)/u/lfs/lfs_subr.o $(B)/u/lib/fsutil/partition.o $(B)/u/lib/fsutil/dinode.o $(B)/u/lib/fsutil/lfs_read.o) $(if $(filter tests/prog/%,$(1)),$(B)/u/tests/lib/check.o) $(B)/lib/crt0.o $(if $(filter $(DBPROGS),$(1)),$(B)/lib/libdb.a) $(B)/lib/libc.a lib/user.ld
	@mkdir -p $$(@D)
	$(LD) -static -nostdlib -T lib/user.ld -o $$@ $(B)/lib/crt0.o $$(filter %.o,$$(filter-out $(B)/lib/crt0.o,$$^)) $(if $(filter $(DBPROGS),$(1)),$(B)/lib/libdb.a) $(B)/lib/libc.a $(LIBGCC)
	@if [ -f $(1)/LINKS ]; then for l in $$$$(cat $(1)/LINKS); do ln -f $$@ $$(@D)/$$$$l; done; fi
PROGS += $(2)
endef
$(foreach d,$(PROGDIRS),$(eval $(call prog,$(d),$(B)/root/$(subst libexec/,usr/libexec/,$(subst tests/prog,usr/tests,$(subst usr.sbin,usr/sbin,$(d)))))))

# Shared sources of the file-system tools, compiled into each tool.
TOOLSHARED := ffs/ffs_subr.c lfs/lfs_subr.c lib/fsutil/partition.c lib/fsutil/dinode.c lib/fsutil/lfs_read.c
HOSTTOOLS := $(patsubst usr.sbin/%,$(B)/host/%,$(wildcard usr.sbin/*))
$(B)/host/%: usr.sbin/%/*.c $(TOOLSHARED) $(wildcard sys/*.h sys/ufs/*.h lib/fsutil/*.h)
	@mkdir -p $(@D)
	$(CC) $(HCFLAGS) -o $@ $(wildcard usr.sbin/$*/*.c) $(TOOLSHARED)

userland: $(PROGS)
hosttools: $(HOSTTOOLS)

# ---------------------------------------------------------------- images
# sd0: the root file system, built on the host from $(B)/root, as xv6's
# mkfs does.  sd1: the scratch disk, blank, the size of the drive model.
ROOTSIZE := 131072
$(B)/sd0.img: $(PROGS) $(HOSTTOOLS) $(wildcard etc/*)
	rm -rf $(B)/rootfs && mkdir -p $(B)/rootfs
	cp -a $(B)/root/. $(B)/rootfs/
	mkdir -p $(B)/rootfs/etc $(B)/rootfs/tmp $(B)/rootfs/mnt $(B)/rootfs/root $(B)/rootfs/var/run
	$(if $(filter-out etc/fs.proto,$(wildcard etc/*)),cp -a $(filter-out etc/fs.proto,$(wildcard etc/*)) $(B)/rootfs/etc/)
	rm -f $@.tmp && truncate -s $$(( $(ROOTSIZE) * 512 )) $@.tmp
	$(B)/host/disklabel -w $@.tmp > /dev/null
	$(B)/host/newfs -D $(B)/rootfs -P etc/fs.proto $@.tmp > /dev/null
	mv $@.tmp $@
$(B)/sd1.img: qemu/disk.py qemu/drivemodel.py
	$(PY) -c 'import sys; sys.path.insert(0, "qemu"); import disk; disk.make_image("$@", "$(DISK)")'

images: $(B)/sd0.img $(B)/sd1.img

# ---------------------------------------------------------------- run
RUNARGS	:= $(if $(SD1),--sd1-from $(SD1))

qemu: all
	$(PY) qemu/run.py $(RUNARGS)

qemu-gdb: all
	$(PY) qemu/run.py --gdb $(RUNARGS)

# Power cut in the middle of a directory operation, after a checkpoint
# and a few partial segments (qemu/crashimage.py says what it holds).
crashimage: all
	$(PY) qemu/crashimage.py $(B)/crashed-lfs.img

# In a second terminal: GDB with the generated .gdbinit.  Naming it with -x
# loads it whatever GDB's auto-load safe-path says.
gdb:
	gdb -q -nx -x .gdbinit

# ---------------------------------------------------------------- test
test: all
	$(PY) -m pytest -q -ra tests

# A power cut at every write boundary of the LFS workloads (tests/crash/run.py).
crashtest: all
	$(PY) tests/crash/run.py

bench: all
	$(PY) bench/run.py

clean:
	rm -rf $(B) .gdbinit

.PHONY: all deps kernel userland hosttools images qemu qemu-gdb gdb crashimage \
	test crashtest bench clean
-include $(shell find $(B) -name '*.d' 2>/dev/null)
