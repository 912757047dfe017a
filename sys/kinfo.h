/*
 * Process information for ps(1), from getproc(2) (SYS_getproc):
 *   int getproc(struct kinfo_proc *buf, int count);
 * fills up to count entries and returns how many processes there are.
 */
#ifndef _SYS_KINFO_H_
#define _SYS_KINFO_H_

#include <sys/types.h>

#define KI_COMMLEN	17

struct kinfo_proc {
	int32_t	  kp_pid;
	int32_t	  kp_ppid;
	int32_t	  kp_pgid;
	int32_t	  kp_sid;
	u_int32_t kp_uid;
	int32_t	  kp_stat;		/* KP_* below */
	char	  kp_wmesg[8];		/* what it sleeps on, if sleeping */
	u_int32_t kp_utime_ms;		/* user and system time */
	u_int32_t kp_stime_ms;
	u_int32_t kp_size_kb;		/* resident user memory */
	u_int32_t kp_start_sec;		/* seconds since boot it started */
	int32_t	  kp_flag;		/* KP_SYSTEM, KP_CONTROLT */
	char	  kp_comm[KI_COMMLEN];
};

#define KP_IDL		1		/* being created */
#define KP_RUN		2		/* runnable or running */
#define KP_SLEEP	3
#define KP_STOP		4
#define KP_ZOMB		5

#define KP_SYSTEM	0x1		/* kernel process */
#define KP_CONTROLT	0x2		/* has a controlling terminal */

#endif
