/* The CLH lock, broken: a thread swaps its node into the tail before it marks the node locked, so
   its successor can read the node's flag before anything wrote it (a read of an uninitialised
   field). The correct version is clh-lock.c. */
#include <stdatomic.h>
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

struct clh { atomic_int locked; };
struct clh *_Atomic tail;
int counter;

void *worker(void *arg)
{
    struct clh *me = malloc(sizeof(struct clh));
    struct clh *pred = atomic_exchange_explicit(&tail, me, memory_order_acq_rel);
    atomic_store_explicit(&me->locked, 1, memory_order_relaxed);
    while (atomic_load_explicit(&pred->locked, memory_order_acquire) == 1)
        ;
    counter = counter + 1;          /* critical section */
    atomic_store_explicit(&me->locked, 0, memory_order_release);
    return NULL;
}

int main(void)
{
    struct clh *dummy = malloc(sizeof(struct clh));
    atomic_store_explicit(&dummy->locked, 0, memory_order_relaxed);
    tail = dummy;
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    assert(counter == 2);
    return 0;
}
