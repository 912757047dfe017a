/*
 * Machine-dependent entry points used by the rest of the kernel.
 */
#ifndef _I386_MACHDEP_H_
#define _I386_MACHDEP_H_

#include <sys/types.h>

struct trapframe;

void	machdep_init(void);
void	set_kstack(u_int32_t esp0);
void	set_user_tls(const u_int32_t desc[2]);

/* FPU and SSE registers: an fxsave image per process, swapped by the scheduler */
#define FPU_SAVE_SIZE	512
void	fpu_clean(u_int8_t *area);
void	fpu_save(u_int8_t *area);
void	fpu_restore(const u_int8_t *area);
void	trap(struct trapframe *);
void	syscall(struct trapframe *);	/* from trap(): kern/i386/syscall.c */
void	hardclock(struct trapframe *);	/* from trap(): kern/i386/clock.c */
extern void trapret(void);

/* interrupts: the two 8259 PICs, IRQ 0..15 */
typedef void (*intr_handler_t)(void *);
void	intr_init(void);
void	intr_establish(int irq, intr_handler_t fn, void *arg);
void	intr_dispatch(int irq);
void	pic_unmask(int irq);

#endif
