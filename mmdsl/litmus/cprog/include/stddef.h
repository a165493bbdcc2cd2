/* mmdsl's <stddef.h>: NULL. */
#ifndef MMDSL_STDDEF_H
#define MMDSL_STDDEF_H
#define NULL 0
#endif
