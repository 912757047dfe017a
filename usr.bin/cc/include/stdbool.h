/* Booleans (C99), for the guest's cc. */
#ifndef _STDBOOL_H_
#define _STDBOOL_H_

#define bool	_Bool
#define true	1
#define false	0
#define __bool_true_false_are_defined	1

#endif
