/* mmdsl's <linux.h>: the Linux-kernel primitives (READ_ONCE, smp_mb ...) are built in; nothing to declare. */
