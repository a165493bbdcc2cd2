/* A ticket lock: take a ticket with fetch_add, wait until it is served, serve the next on unlock.
   Two threads increment a plain counter inside it; the counter ends at 2. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int next_ticket;
atomic_int now_serving;
int counter;

void lock(void)
{
    int me = atomic_fetch_add_explicit(&next_ticket, 1, memory_order_relaxed);
    while (atomic_load_explicit(&now_serving, memory_order_acquire) != me)
        ;
}

void unlock(void)
{
    int n = atomic_load_explicit(&now_serving, memory_order_relaxed);
    atomic_store_explicit(&now_serving, n + 1, memory_order_release);
}

void *worker(void *arg)
{
    lock();
    counter = counter + 1;
    unlock();
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
