/* mmdsl's <stdbool.h>. */
#ifndef MMDSL_STDBOOL_H
#define MMDSL_STDBOOL_H
#define bool _Bool
#define true 1
#define false 0
#endif
