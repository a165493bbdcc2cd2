/* mmdsl's <stdlib.h>: malloc and free (bounded pools), NULL. */
#ifndef MMDSL_STDLIB_H
#define MMDSL_STDLIB_H
#define NULL 0
#endif
