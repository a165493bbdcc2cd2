/* The MCS lock, broken: unlock does not wait for a successor that has swapped itself into the
   tail but not yet linked itself behind this node; it leaves, and the successor spins forever
   (a livelock). The correct version is mcs-lock.c. */
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
        atomic_compare_exchange_strong_explicit(&tail, &expected, NULL, memory_order_release,
                                                memory_order_relaxed);
        return NULL;
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
