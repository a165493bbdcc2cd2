/* Dekker's mutual exclusion with release stores and acquire loads: a thread's flag store may
   still be buffered when it reads the other's flag (store buffering), so under tso both threads
   enter the critical section. Safe under sc. The correct version is dekker-sc.c. */
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
    while (atomic_load_explicit(&flag[other], memory_order_acquire) == 1) {
        if (atomic_load_explicit(&turn, memory_order_seq_cst) != me) {
            atomic_store_explicit(&flag[me], 0, memory_order_seq_cst);
            while (atomic_load_explicit(&turn, memory_order_seq_cst) != me)
                ;
            atomic_store_explicit(&flag[me], 1, memory_order_release);
        }
    }
    in_cs = in_cs + 1;          /* critical section */
    assert(in_cs == 1);
    in_cs = in_cs - 1;
    atomic_store_explicit(&turn, other, memory_order_seq_cst);
    atomic_store_explicit(&flag[me], 0, memory_order_seq_cst);
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
