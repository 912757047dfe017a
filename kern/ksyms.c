/*
 * Kernel symbol table for backtraces.  The build links the kernel twice:
 * the second link adds .ksyms (generated from the first link's symbols by
 * kern/gen_ksyms.py), placed after everything else so nothing moves.
 */
#include "kern/systm.h"

struct ksym {
	u_int32_t addr;
	u_int32_t name;			/* offset into ksyms_names */
};

extern const u_int32_t ksyms_count;
extern const struct ksym ksyms_table[];
extern const char ksyms_names[];

/* The function containing addr, by binary search. */
const char *
ksym_lookup(u_int32_t addr, u_int32_t *off)
{
	int lo = 0, hi = (int)ksyms_count - 1, best = -1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (ksyms_table[mid].addr <= addr) {
			best = mid;
			lo = mid + 1;
		} else
			hi = mid - 1;
	}
	*off = 0;
	if (best < 0)
		return NULL;
	*off = addr - ksyms_table[best].addr;
	return &ksyms_names[ksyms_table[best].name];
}
