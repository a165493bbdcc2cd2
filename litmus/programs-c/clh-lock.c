/* The CLH queue lock (Craig; Landin and Hagersten): a thread marks its own node locked, swaps it
   into the tail and spins on its predecessor's node; unlock clears its own node. The tail starts
   at an unlocked dummy node. Two threads increment a plain counter inside it; it ends at 2. */
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
    atomic_store_explicit(&me->locked, 1, memory_order_relaxed);
    struct clh *pred = atomic_exchange_explicit(&tail, me, memory_order_acq_rel);
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
