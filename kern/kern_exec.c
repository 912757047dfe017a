/*
 * execve: replace the process image with a static ELF program.
 *
 * Everything that can fail is done before the old image is touched: the
 * file is checked, the arguments copied into the kernel, and the new
 * address space built completely (segments read from the file, the stack
 * laid out).  Only then are the old address space and close-on-exec
 * descriptors dropped, so a failed exec returns an error to a process
 * that is still intact.  A file starting with "#!" runs its interpreter
 * with the file name as an argument (one level only).
 *
 * The new stack, from the top: the strings, then (growing down) envp[]
 * and argv[] pointer arrays with NULL ends, and argc at %esp.  The
 * image's emulation (kern/emul.h) may ask for random bytes under the
 * strings and words after envp's NULL (Linux's auxiliary vector).
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/namei.h"
#include "kern/file.h"
#include "kern/uio.h"
#include "kern/malloc.h"
#include "kern/syscallargs.h"
#include "kern/i386/cpu.h"
#include "kern/i386/pmap.h"
#include "kern/exec_elf.h"
#include "kern/i386/machdep.h"
#include "kern/emul.h"
#include <sys/stat.h>

struct execargs {
	char	*buf;			/* argument and environment strings */
	int	len;			/* bytes used in buf */
	int	argc, envc;
};

/* Append one string to the argument area. */
static int
addarg(struct execargs *ea, const char *s, int user)
{
	size_t done;
	int error;

	if (user) {
		error = copyinstr(s, ea->buf + ea->len, ARG_MAX - ea->len,
		    &done);
		if (error == ENAMETOOLONG)
			return E2BIG;
		if (error)
			return error;
	} else {
		done = strlen(s) + 1;
		if (ea->len + done > ARG_MAX)
			return E2BIG;
		memcpy(ea->buf + ea->len, s, done);
	}
	ea->len += done;
	return 0;
}

/* Copy a NULL-terminated vector of strings (skip the first n). */
static int
copyvec(struct execargs *ea, char **vec, int user, int skip, int *count)
{
	char *s;
	int error, i;

	if (vec == NULL)
		return 0;
	for (i = 0;; i++) {
		if (!user)
			s = vec[i];
		else if ((error = copyin(&vec[i], &s, sizeof(s))) != 0)
			return error;
		if (s == NULL)
			return 0;
		if (i < skip)
			continue;
		if ((error = addarg(ea, s, user)) != 0)
			return error;
		(*count)++;
	}
}

/* Read a file range into the new address space, page by page. */
static int
load_segment(struct pmap *pm, struct vnode *vp, Elf32_Phdr *ph)
{
	u_int32_t va, end = ph->p_vaddr + ph->p_memsz;
	int error, writable = (ph->p_flags & PF_W) != 0;

	for (va = trunc_page(ph->p_vaddr); va < end; va += PAGE_SIZE)
		if ((error = pmap_enter(pm, va, writable)) != 0)
			return error;
	for (va = ph->p_vaddr; va < ph->p_vaddr + ph->p_filesz;) {
		u_int32_t n = MIN(PAGE_SIZE - (va & (PAGE_SIZE - 1)),
		    ph->p_vaddr + ph->p_filesz - va);

		error = vn_rdwr(UIO_READ, vp, pmap_extract(pm, va), n,
		    ph->p_offset + (va - ph->p_vaddr), UIO_SYSSPACE, 0,
		    &curproc->p_cred, NULL);
		if (error)
			return error;
		va += n;
	}
	return 0;
}

/*
 * Check the ELF header and load every PT_LOAD segment.  *phdr: where the
 * program headers are in memory (PT_PHDR, or inside the segment that
 * loads them), for a Linux program's AT_PHDR.
 */
static int
load_elf(struct pmap *pm, struct vnode *vp, Elf32_Ehdr *eh, u_int32_t *brk,
    u_int32_t *phdr)
{
	Elf32_Phdr ph;
	int i, error;

	if (eh->e_ident[EI_CLASS] != ELFCLASS32 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_type != ET_EXEC ||
	    eh->e_machine != EM_386 || eh->e_phentsize != sizeof(ph) ||
	    eh->e_phnum == 0 || eh->e_phnum > 16)
		return ENOEXEC;
	*brk = *phdr = 0;
	for (i = 0; i < eh->e_phnum; i++) {
		error = vn_rdwr(UIO_READ, vp, &ph, sizeof(ph),
		    eh->e_phoff + i * sizeof(ph), UIO_SYSSPACE, 0,
		    &curproc->p_cred, NULL);
		if (error)
			return ENOEXEC;
		if (ph.p_type == PT_PHDR)
			*phdr = ph.p_vaddr;
		if (ph.p_type != PT_LOAD)
			continue;
		if (*phdr == 0 && ph.p_offset <= eh->e_phoff &&
		    eh->e_phoff < ph.p_offset + ph.p_filesz)
			*phdr = ph.p_vaddr + (eh->e_phoff - ph.p_offset);
		if (ph.p_vaddr < USRTEXT || ph.p_filesz > ph.p_memsz ||
		    ph.p_vaddr + ph.p_memsz < ph.p_vaddr ||
		    ph.p_vaddr + ph.p_memsz > USRSTACK - MAXSSIZ)
			return ENOEXEC;
		if ((error = load_segment(pm, vp, &ph)) != 0)
			return error;
		if (ph.p_vaddr + ph.p_memsz > *brk)
			*brk = ph.p_vaddr + ph.p_memsz;
	}
	if (*brk == 0)
		return ENOEXEC;
	*brk = round_page(*brk);
	return 0;
}

/* Programs of this kernel: its own system calls, nothing more. */
const struct emul emul_native = {
	"4.4BSD", NULL, syscall_native, 0, NULL, NULL,
};

/*
 * Lay out argc, argv, envp and the strings, and what the emulation em
 * adds (random bytes, words after envp); returns the new %esp.
 */
static int
setup_stack(struct pmap *pm, struct execargs *ea, const struct emul *em,
    const struct execimage *img, u_int32_t *spp)
{
	int nptr = 1 + ea->argc + 1 + ea->envc + 1, naux = 0, i, error;
	u_int32_t strbase, rndbase, sp, va, *words;
	u_int32_t aux[EXEC_AUXMAX];
	u_int8_t rnd[32];
	char *s;

	KASSERT(em->e_nrandom <= (int)sizeof(rnd));
	strbase = (USRSTACK - ea->len) & ~3u;
	rndbase = strbase;
	if (em->e_nrandom > 0)
		rndbase = (strbase - em->e_nrandom) & ~15u;
	if (em->e_auxv != NULL)
		naux = em->e_auxv(img, rndbase, strbase, aux);
	KASSERT(naux <= EXEC_AUXMAX);
	sp = (rndbase - (nptr + naux) * 4) & ~15u;
	for (va = trunc_page(sp); va < USRSTACK; va += PAGE_SIZE)
		if ((error = pmap_enter(pm, va, 1)) != 0)
			return error;
	words = malloc((nptr + naux) * 4, M_WAITOK);
	words[0] = ea->argc;
	s = ea->buf;
	for (i = 0; i < ea->argc + ea->envc; i++) {
		int slot = 1 + i + (i >= ea->argc);

		words[slot] = strbase + (s - ea->buf);
		s += strlen(s) + 1;
	}
	words[1 + ea->argc] = 0;
	words[nptr - 1] = 0;
	memcpy(words + nptr, aux, naux * 4);
	error = pmap_copyout(pm, sp, words, (nptr + naux) * 4);
	if (error == 0)
		error = pmap_copyout(pm, strbase, ea->buf, ea->len);
	if (error == 0 && em->e_nrandom > 0) {
		read_random(rnd, em->e_nrandom);
		error = pmap_copyout(pm, rndbase, rnd, em->e_nrandom);
	}
	free(words);
	*spp = sp;
	return error;
}

/* The emulation whose program this ELF image is. */
static const struct emul *
exec_emul(struct vnode *vp, const void *hdr)
{
	const struct emul *const *e;

	for (e = emulsw; *e != NULL; e++)
		if ((*e)->e_probe(vp, hdr))
			return *e;
	return &emul_native;
}

/* Parse "#!interp [arg]" from the first line of a script. */
static int
shell_header(const char *hdr, int n, char *interp, char *arg)
{
	int i = 2, j;

	while (i < n && (hdr[i] == ' ' || hdr[i] == '\t'))
		i++;
	for (j = 0; i < n && hdr[i] != ' ' && hdr[i] != '\t' &&
	    hdr[i] != '\n'; i++)
		if (j < MAXPATHLEN - 1)
			interp[j++] = hdr[i];
	interp[j] = '\0';
	while (i < n && (hdr[i] == ' ' || hdr[i] == '\t'))
		i++;
	for (j = 0; i < n && hdr[i] != '\n'; i++)
		if (j < 63)
			arg[j++] = hdr[i];
	while (j > 0 && (arg[j - 1] == ' ' || arg[j - 1] == '\t'))
		j--;
	arg[j] = '\0';
	if (i >= n || interp[0] == '\0')
		return ENOEXEC;		/* no newline in the first 128 bytes */
	return 0;
}

/* Look up and check an executable; returns it referenced. */
static int
exec_lookup(struct nameidata *nd, const char *path, int seg,
    struct vnode **vpp, void *hdr, int *hdrlen, struct vattr *vap)
{
	struct vnode *vp;
	struct vattr va;
	int error, resid;

	NDINIT(nd, LOOKUP, FOLLOW, seg, path);
	if ((error = namei(nd)) != 0)
		return error;
	vp = nd->ni_vp;
	if (vp->v_type != VREG)
		error = EACCES;
	else if ((error = VOP_ACCESS(vp, VEXEC, &curproc->p_cred)) == 0 &&
	    (error = VOP_GETATTR(vp, &va)) == 0) {
		if (vp->v_mount && (vp->v_mount->mnt_flag & MNT_NOEXEC))
			error = EACCES;
		else if (va.va_size < 4)
			error = ENOEXEC;
	}
	if (error == 0)
		error = vn_rdwr(UIO_READ, vp, hdr, 128, 0, UIO_SYSSPACE, 0,
		    &curproc->p_cred, &resid);
	if (error) {
		vrele(vp);
		return error;
	}
	*hdrlen = 128 - resid;
	*vpp = vp;
	*vap = va;
	return 0;
}

int
kern_execve(struct proc *p, const char *path, int seg, char **argp,
    char **envp)
{
	struct nameidata *nd = malloc(sizeof(*nd), M_WAITOK);
	struct execargs ea = { NULL, 0, 0, 0 };
	char hdr[128], *interp = NULL, sharg[64];
	const char *name;
	struct vnode *vp;
	struct pmap *pm = NULL, *old;
	struct vattr va;
	const struct emul *em;
	struct execimage img;
	u_int32_t brk, sp;
	int error, hdrlen, skip = 0;

	error = exec_lookup(nd, path, seg, &vp, hdr, &hdrlen, &va);
	if (error)
		goto out;
	ea.buf = malloc(ARG_MAX, M_WAITOK);
	if (hdrlen >= 2 && hdr[0] == '#' && hdr[1] == '!') {
		interp = malloc(MAXPATHLEN, M_WAITOK);
		if ((error = shell_header(hdr, hdrlen, interp, sharg)) != 0)
			goto bad;
		/* argv becomes: interp [sharg] path argv[1..] */
		if ((error = addarg(&ea, interp, 0)) != 0)
			goto bad;
		ea.argc++;
		if (sharg[0]) {
			if ((error = addarg(&ea, sharg, 0)) != 0)
				goto bad;
			ea.argc++;
		}
		if ((error = addarg(&ea, nd->ni_pnbuf, 0)) != 0)
			goto bad;
		ea.argc++;
		skip = 1;
		vrele(vp);
		error = exec_lookup(nd, interp, UIO_SYSSPACE, &vp, hdr,
		    &hdrlen, &va);
		if (error) {
			vp = NULL;
			goto bad;
		}
	}
	if (hdrlen < (int)sizeof(Elf32_Ehdr) ||
	    memcmp(hdr, ELFMAG, SELFMAG) != 0) {
		error = ENOEXEC;
		goto bad;
	}
	if ((error = copyvec(&ea, argp, seg == UIO_USERSPACE, skip,
	    &ea.argc)) != 0 ||
	    (error = copyvec(&ea, envp, seg == UIO_USERSPACE, 0,
	    &ea.envc)) != 0)
		goto bad;
	if ((pm = pmap_create()) == NULL) {
		error = ENOMEM;
		goto bad;
	}
	if ((error = load_elf(pm, vp, (Elf32_Ehdr *)hdr, &brk, &img.phdr)) != 0)
		goto bad;
	em = exec_emul(vp, hdr);
	img.entry = ((Elf32_Ehdr *)hdr)->e_entry;
	img.phnum = ((Elf32_Ehdr *)hdr)->e_phnum;
	if ((error = setup_stack(pm, &ea, em, &img, &sp)) != 0)
		goto bad;

	/* The point of no return: the old image goes away. */
	old = p->p_pmap;
	if (p->p_flag & P_PPWAIT) {	/* vfork: the parent's, given back */
		vfork_return(p);
		old = NULL;
	}
	p->p_pmap = pm;
	pmap_activate(pm);
	if (old != NULL)
		pmap_destroy(old);
	p->p_brkbase = p->p_brk = brk;
	p->p_emul = em;
	p->p_tls[0] = p->p_tls[1] = 0;	/* no TLS segment */
	if (em->e_exec != NULL)
		em->e_exec(p);
	fpu_clean(p->p_fpu);
	name = interp ? interp : nd->ni_pnbuf;
	if (strchr(name, '/'))
		while (strchr(name, '/'))
			name = strchr(name, '/') + 1;
	strlcpy(p->p_comm, name, sizeof(p->p_comm));
	p->p_flag |= P_EXEC;
	/* A set-user-id (or -group-id) program runs as its file's owner. */
	if (!(vp->v_mount->mnt_flag & MNT_NOSUID)) {
		if (va.va_mode & S_ISUID)
			p->p_cred.cr_uid = va.va_uid;
		if (va.va_mode & S_ISGID)
			p->p_cred.cr_gid = va.va_gid;
	}
	fdcloseexec(p);
	execsigs(p);
	memset(p->p_tf, 0, sizeof(*p->p_tf));
	p->p_tf->tf_eip = ((Elf32_Ehdr *)hdr)->e_entry;
	p->p_tf->tf_esp = sp;
	p->p_tf->tf_cs = GSEL_UCODE;
	p->p_tf->tf_ds = p->p_tf->tf_es = p->p_tf->tf_fs = p->p_tf->tf_gs =
	    p->p_tf->tf_ss = GSEL_UDATA;
	p->p_tf->tf_eflags = PSL_USERSET;
	vrele(vp);
	error = EJUSTRETURN;
	goto out;
bad:
	if (pm)
		pmap_destroy(pm);
	if (vp)
		vrele(vp);
out:
	free(ea.buf);
	free(interp);
	free(nd);
	return error;
}

int
sys_execve(struct proc *p, struct execve_args *uap, int *retval)
{
	return kern_execve(p, uap->path, UIO_USERSPACE, uap->argp, uap->envp);
}
