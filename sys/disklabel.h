/*
 * The disk label: a simplified 4.4BSD disklabel in sector LABELSECTOR of
 * the disk, at byte LABELOFFSET, that gives the drive's geometry and cuts
 * it into up to MAXPARTITIONS partitions.  Partition 'a' (index 0) holds
 * the root or scratch file system, 'c' (RAW_PART) is the whole disk.
 * The label sits in the 8 KB boot area that every file system leaves
 * alone.  When the sector holds no valid label (wrong magic or checksum)
 * the kernel makes up a default one: 'a' and 'c' both the whole disk.
 *
 * Shared by the kernel's sd driver, disklabel(8) and newfs (which reads
 * the geometry from it).  This header includes nothing: the includer
 * provides u_int8_t, u_int16_t and u_int32_t.
 */
#ifndef _SYS_DISKLABEL_H_
#define _SYS_DISKLABEL_H_

#define LABELSECTOR	1		/* sector holding the label */
#define LABELOFFSET	0		/* byte offset of the label there */

#define DISKMAGIC	((u_int32_t)0x82564557)	/* the disk magic number */
#define MAXPARTITIONS	8
#define RAW_PART	2		/* 'c': the whole disk */

struct partition {
	u_int32_t p_size;		/* sectors in the partition */
	u_int32_t p_offset;		/* first sector of the partition */
	u_int32_t p_fsize;		/* file system fragment size */
	u_int8_t  p_fstype;		/* FS_ type of the contents */
	u_int8_t  p_frag;		/* fragments per block */
	u_int16_t p_cpg;		/* FFS cylinders per group */
};					/* 16 bytes */

struct disklabel {
	u_int32_t d_magic;		/*   0: DISKMAGIC */
	u_int16_t d_type;		/*   4: DTYPE_ drive type */
	u_int16_t d_subtype;		/*   6: controller specific */
	char	  d_typename[16];	/*   8: drive type name */
	char	  d_packname[16];	/*  24: pack identifier */
	u_int32_t d_secsize;		/*  40: bytes per sector */
	u_int32_t d_nsectors;		/*  44: sectors per track */
	u_int32_t d_ntracks;		/*  48: tracks per cylinder */
	u_int32_t d_ncylinders;		/*  52: cylinders per unit */
	u_int32_t d_secpercyl;		/*  56: sectors per cylinder */
	u_int32_t d_secperunit;		/*  60: sectors per unit */
	u_int16_t d_rpm;		/*  64: rotational speed */
	u_int16_t d_interleave;		/*  66: hardware sector interleave */
	u_int32_t d_magic2;		/*  68: DISKMAGIC again */
	u_int16_t d_checksum;		/*  72: xor of the label's 16-bit words */
	u_int16_t d_npartitions;	/*  74: partitions that follow */
	struct	partition d_partitions[MAXPARTITIONS];	/* 76 */
};					/* 204 bytes */

/* d_type */
#define DTYPE_SMD	1
#define DTYPE_MSCP	2
#define DTYPE_DEC	3
#define DTYPE_SCSI	4
#define DTYPE_ESDI	5
#define DTYPE_ST506	6
#define DTYPE_FLOPPY	10

/* p_fstype */
#define FS_UNUSED	0		/* unused */
#define FS_SWAP		1		/* swap */
#define FS_V6		2
#define FS_V7		3
#define FS_SYSV		4
#define FS_V71K		5
#define FS_V8		6
#define FS_BSDFFS	7		/* 4.2BSD fast file system (and EFS) */
#define FS_MSDOS	8
#define FS_BSDLFS	9		/* 4.4BSD log-structured file system */

/*
 * The label checksum, as 4.4BSD's dkcksum: the xor of the 16-bit words
 * from the start of the label to the end of its last partition.  A label
 * is valid when both magics match and the checksum of the label as
 * stored (d_checksum included) is zero.  Callers check d_npartitions <=
 * MAXPARTITIONS first.
 */
static __inline u_int16_t
dkcksum(const struct disklabel *lp)
{
	const u_int16_t *start, *end;
	u_int16_t sum;

	sum = 0;
	start = (const u_int16_t *)lp;
	end = (const u_int16_t *)&lp->d_partitions[lp->d_npartitions];
	while (start < end)
		sum ^= *start++;
	return (sum);
}

#endif /* !_SYS_DISKLABEL_H_ */
