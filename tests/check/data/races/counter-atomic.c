/* The counter as a relaxed atomic fetch_add: no data race. */
#include <pthread.h>
#include <assert.h>

#include <stdatomic.h>
atomic_int counter;

void *worker(void *arg)
{
    atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
