/* A pointer stored in shared memory: the writer fills x, then publishes its address in p with a
   release store; the reader loads p with acquire and dereferences what it read (an address
   dependency from the load of p to the load of *t). Safe under every model. The broken version,
   shared-pointer-broken.c, publishes and reads p with relaxed orders. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int x;
_Atomic(atomic_int *) p = NULL;

void *writer(void *arg)
{
    atomic_store_explicit(&x, 1, memory_order_relaxed);
    atomic_store_explicit(&p, &x, memory_order_release);
    return NULL;
}

void *reader(void *arg)
{
    atomic_int *t = atomic_load_explicit(&p, memory_order_acquire);
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
