/* mmdsl's <stdatomic.h>: the C11 atomics its C program front end supports (mmdsl/litmus/cprog). */
#ifndef MMDSL_STDATOMIC_H
#define MMDSL_STDATOMIC_H
typedef enum { memory_order_relaxed, memory_order_consume, memory_order_acquire,
               memory_order_release, memory_order_acq_rel, memory_order_seq_cst } memory_order;
#define atomic_int _Atomic int
#define atomic_uint _Atomic unsigned int
#define atomic_long _Atomic long
#define atomic_ulong _Atomic unsigned long
#define atomic_bool _Atomic _Bool
#define atomic_char _Atomic char
#define atomic_short _Atomic short
#define atomic_llong _Atomic long long
#define atomic_intptr_t _Atomic long
#define atomic_uintptr_t _Atomic unsigned long
#define atomic_size_t _Atomic unsigned long
#define ATOMIC_VAR_INIT(v) (v)
#define atomic_init(p, v) atomic_store_explicit((p), (v), memory_order_relaxed)
#endif
