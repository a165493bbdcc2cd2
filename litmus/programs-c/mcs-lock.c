/* The MCS queue lock (Mellor-Crummey and Scott 1991): each thread enqueues its own node by an
   exchange on the tail, links itself behind its predecessor and spins on its own node's flag;
   unlock hands the lock to the successor (or resets the tail by compare-and-swap). Two threads
   increment a plain counter inside it; the counter ends at 2. */
#include <stdatomic.h>
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

struct qnode { atomic_int locked; struct qnode *_Atomic next; };
struct qnode *_Atomic tail;
int counter;

void *worker(void *arg)
{
    struct qnode *me = malloc(sizeof(struct qnode));
    atomic_store_explicit(&me->next, NULL, memory_order_relaxed);
    atomic_store_explicit(&me->locked, 1, memory_order_relaxed);
    struct qnode *pred = atomic_exchange_explicit(&tail, me, memory_order_acq_rel);
    if (pred != NULL) {
        atomic_store_explicit(&pred->next, me, memory_order_release);
        while (atomic_load_explicit(&me->locked, memory_order_acquire) == 1)
            ;
    }
    counter = counter + 1;          /* critical section */
    struct qnode *succ = atomic_load_explicit(&me->next, memory_order_acquire);
    if (succ == NULL) {
        struct qnode *expected = me;
        if (atomic_compare_exchange_strong_explicit(&tail, &expected, NULL, memory_order_release,
                                                    memory_order_relaxed))
            return NULL;
        while ((succ = atomic_load_explicit(&me->next, memory_order_acquire)) == NULL)
            ;
    }
    atomic_store_explicit(&succ->locked, 0, memory_order_release);
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    assert(counter == 2);
    return 0;
}
