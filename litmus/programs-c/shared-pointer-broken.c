/* shared-pointer.c broken: p is published and read with relaxed orders, so under C11 (rc11.cat)
   the reader may follow the pointer and still read x as 0. x86 (tso) keeps the order: safe there. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int x;
_Atomic(atomic_int *) p = NULL;

void *writer(void *arg)
{
    atomic_store_explicit(&x, 1, memory_order_relaxed);
    atomic_store_explicit(&p, &x, memory_order_relaxed);
    return NULL;
}

void *reader(void *arg)
{
    atomic_int *t = atomic_load_explicit(&p, memory_order_relaxed);
    if (t != NULL)
        assert(atomic_load_explicit(t, memory_order_relaxed) == 1);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, writer, NULL);
    pthread_create(&b, NULL, reader, NULL);
    return 0;
}
