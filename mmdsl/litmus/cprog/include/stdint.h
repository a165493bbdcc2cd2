/* mmdsl's <stdint.h>: the integer types (all are mathematical integers to the checker). */
#ifndef MMDSL_STDINT_H
#define MMDSL_STDINT_H
typedef int int8_t; typedef int int16_t; typedef int int32_t; typedef long int64_t;
typedef unsigned uint8_t; typedef unsigned uint16_t; typedef unsigned uint32_t; typedef unsigned long uint64_t;
typedef long intptr_t; typedef unsigned long uintptr_t; typedef unsigned long size_t;
#endif
