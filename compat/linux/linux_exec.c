/*
 * exec of a Linux program: recognising one, and what its initial stack
 * carries beyond argc, argv and envp.
 *
 * glibc's static start-up (_dl_aux_init, __libc_setup_tls) reads the
 * auxiliary vector after envp's NULL: pairs of (AT_* type, value) ended
 * by AT_NULL.  It finds its own program headers through AT_PHDR and
 * AT_PHNUM (for the PT_TLS segment that sizes the thread-local block),
 * seeds the stack protector and pointer guard from the 16 bytes at
 * AT_RANDOM, and takes the page size from AT_PAGESZ.  There is no vDSO:
 * without AT_SYSINFO glibc makes its system calls with "int $0x80".
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/vnode.h"
#include "kern/malloc.h"
#include "kern/uio.h"
#include "kern/exec_elf.h"
#include "kern/i386/pmap.h"
#include "kern/emul.h"
#include "compat/linux/linux.h"

#define MAXNOTES	1024		/* bytes of PT_NOTE read to decide */

/*
 * Is the ELF file a Linux program?  The GNU/Linux OSABI byte says so at
 * once; otherwise a PT_NOTE segment with the GNU ABI tag naming Linux
 * (what every glibc program carries).  Our own programs have neither.
 */
int
linux_elf_probe(struct vnode *vp, const void *hdr)
{
	const Elf32_Ehdr *eh = hdr;
	Elf32_Phdr ph;
	unsigned char *notes;
	int i, found = 0, resid;

	if (eh->e_ident[EI_OSABI] == LINUX_ELFOSABI)
		return 1;
	for (i = 0; i < eh->e_phnum && !found; i++) {
		if (vn_rdwr(UIO_READ, vp, &ph, sizeof(ph),
		    eh->e_phoff + i * sizeof(ph), UIO_SYSSPACE, 0,
		    &curproc->p_cred, NULL) != 0)
			return 0;
		if (ph.p_type != PT_NOTE || ph.p_filesz == 0)
			continue;
		notes = malloc(MAXNOTES, M_WAITOK);
		if (vn_rdwr(UIO_READ, vp, notes, MIN(ph.p_filesz, MAXNOTES),
		    ph.p_offset, UIO_SYSSPACE, 0, &curproc->p_cred,
		    &resid) == 0)
			found = linux_note_is_linux(notes,
			    MIN(ph.p_filesz, MAXNOTES) - resid);
		free(notes);
	}
	return found;
}

/* The CPU's feature bits (CPUID leaf 1, %edx): AT_HWCAP. */
static u_int32_t
hwcap(void)
{
	u_int32_t a = 1, b, c, d;

	__asm volatile("cpuid" : "+a"(a), "=b"(b), "=c"(c), "=d"(d));
	return d;
}

/*
 * Fill the auxiliary vector for an image; randomva and execfnva are
 * where exec put the 16 random bytes and the program's path on the new
 * stack.  Returns the number of words used (pairs, AT_NULL included).
 */
int
linux_auxv(const struct execimage *img, u_int32_t randomva,
    u_int32_t execfnva, u_int32_t *a)
{
	struct proc *p = curproc;
	int n = 0;

#define AUX(type, val)	do { a[n++] = (type); a[n++] = (val); } while (0)
	AUX(LINUX_AT_PHDR, img->phdr);
	AUX(LINUX_AT_PHENT, sizeof(Elf32_Phdr));
	AUX(LINUX_AT_PHNUM, img->phnum);
	AUX(LINUX_AT_PAGESZ, PAGE_SIZE);
	AUX(LINUX_AT_BASE, 0);			/* no interpreter */
	AUX(LINUX_AT_FLAGS, 0);
	AUX(LINUX_AT_ENTRY, img->entry);
	AUX(LINUX_AT_UID, p->p_cred.cr_ruid);
	AUX(LINUX_AT_EUID, p->p_cred.cr_uid);
	AUX(LINUX_AT_GID, p->p_cred.cr_rgid);
	AUX(LINUX_AT_EGID, p->p_cred.cr_gid);
	AUX(LINUX_AT_SECURE, 0);
	AUX(LINUX_AT_HWCAP, hwcap());
	AUX(LINUX_AT_CLKTCK, hz);
	AUX(LINUX_AT_RANDOM, randomva);
	AUX(LINUX_AT_EXECFN, execfnva);
	AUX(LINUX_AT_NULL, 0);
#undef AUX
	KASSERT(n <= EXEC_AUXMAX);
	return n;
}

/* A new Linux image: an empty mmap area (exec has cleared the TLS). */
static void
linux_exec(struct proc *p)
{
	p->p_mmaplow = USRSTACK - MAXSSIZ;
}

const struct emul emul_linux = {
	"Linux", linux_elf_probe, linux_syscall, LINUX_RANDOM_BYTES,
	linux_auxv, linux_exec, linux_sendsig,
};
