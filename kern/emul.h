/*
 * Emulations: what a program's image asks of the kernel beyond its code
 * (NetBSD's struct emul).  exec tries each emulation of emulsw (the
 * kernel's configuration, conf/config.c) on the ELF header and gives the
 * process the first that claims it, else emul_native; from then on the
 * system-call trap goes to the emulation's dispatcher.  kern/ names no
 * emulation but its own.
 */
#ifndef _KERN_EMUL_H_
#define _KERN_EMUL_H_

#include <sys/types.h>
#include <sys/signal.h>

struct proc;
struct trapframe;
struct vnode;

/* What exec knows of a loaded image, for an emulation's auxiliary vector. */
struct execimage {
	u_int32_t entry;		/* e_entry */
	u_int32_t phdr;			/* address of the program headers */
	u_int32_t phnum;
};

#define EXEC_AUXMAX	34		/* words an emulation may add after envp */

struct emul {
	const char *e_name;
	/* Is this ELF image ours?  (NULL: the native emulation, never asked) */
	int	(*e_probe)(struct vnode *, const void *ehdr);
	/* The system-call trap: arguments, dispatch, results and errno. */
	void	(*e_syscall)(struct proc *, struct trapframe *);
	/* Random bytes exec puts under the strings (0: none). */
	int	e_nrandom;
	/*
	 * Fill the words after envp's NULL (at most EXEC_AUXMAX), given where
	 * exec put the random bytes and the strings; returns how many.
	 */
	int	(*e_auxv)(const struct execimage *, u_int32_t randomva,
		    u_int32_t strva, u_int32_t *aux);
	/* What a new image resets (NULL: nothing beyond exec's own). */
	void	(*e_exec)(struct proc *);
	/*
	 * Build a handler's frame for sig on the user stack, with the mask to
	 * restore and the trap's code, and point the registers at the handler
	 * (NULL: the native frame, kern_sig.c).
	 */
	void	(*e_sendsig)(struct proc *, int sig, sigset_t mask,
		    u_int32_t code);
};

extern const struct emul emul_native;		/* kern/kern_exec.c */
extern const struct emul *const emulsw[];	/* conf/config.c, NULL-ended */

void	syscall_native(struct proc *, struct trapframe *); /* i386/syscall.c */
void	read_random(void *, u_int32_t len);	/* kern/kern_exec.c */

#endif
