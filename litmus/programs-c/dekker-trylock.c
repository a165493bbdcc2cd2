/* Dekker's entry without the waiting loop: each thread raises its flag, and enters its
   critical section only if the other's flag is down. Relaxed accesses: a store followed by
   a load of another location (store buffering) lets both threads in under TSO and PSO. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int flag[2];
int in_cs;

void *worker(void *arg)
{
    int me = (int)(long)arg;
    atomic_store_explicit(&flag[me], 1, memory_order_relaxed);
    if (atomic_load_explicit(&flag[1 - me], memory_order_relaxed) == 0) {
        in_cs = in_cs + 1;      /* critical section */
        assert(in_cs == 1);
        in_cs = in_cs - 1;
    }
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)(long)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    return 0;
}
