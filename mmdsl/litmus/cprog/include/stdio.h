/* mmdsl's <stdio.h>: printf and friends are calls the front end skips (output is not checked). */
#ifndef MMDSL_STDIO_H
#define MMDSL_STDIO_H
#define NULL 0
#endif
