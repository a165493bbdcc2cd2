/* Peterson with release/acquire accesses and a seq_cst fence between the stores and the
   loads: the fence forbids the store->load reordering, mutual exclusion holds. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int flag[2];
atomic_int turn;
int in_cs;

void *worker(void *arg)
{
    int me = (int)(long)arg;
    int other = 1 - me;
    atomic_store_explicit(&flag[me], 1, memory_order_release);
    atomic_store_explicit(&turn, other, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst);
    while (atomic_load_explicit(&flag[other], memory_order_acquire) == 1
           && atomic_load_explicit(&turn, memory_order_acquire) == other)
        ;
    in_cs = in_cs + 1;          /* critical section */
    assert(in_cs == 1);
    in_cs = in_cs - 1;
    atomic_store_explicit(&flag[me], 0, memory_order_release);
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
