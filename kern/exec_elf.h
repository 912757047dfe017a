/*
 * The parts of the ELF format exec needs (32-bit, i386).
 */
#ifndef _KERN_EXEC_ELF_H_
#define _KERN_EXEC_ELF_H_

#include <sys/types.h>

#define ELFMAG		"\177ELF"
#define SELFMAG		4
#define EI_CLASS	4
#define EI_DATA		5
#define EI_OSABI	7		/* 3: GNU/Linux (compat/linux) */
#define ELFCLASS32	1
#define ELFDATA2LSB	1
#define ET_EXEC		2
#define EM_386		3
#define PT_LOAD		1
#define PT_NOTE		4
#define PT_PHDR		6
#define PF_X		1
#define PF_W		2
#define PF_R		4

typedef struct {
	u_int8_t  e_ident[16];
	u_int16_t e_type, e_machine;
	u_int32_t e_version, e_entry, e_phoff, e_shoff, e_flags;
	u_int16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum;
	u_int16_t e_shstrndx;
} Elf32_Ehdr;

typedef struct {
	u_int32_t p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz;
	u_int32_t p_flags, p_align;
} Elf32_Phdr;

#endif
