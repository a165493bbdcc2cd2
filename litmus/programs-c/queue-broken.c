/* A one-slot single-producer single-consumer queue: the producer writes the item, then
   publishes it by setting `full`; the consumer takes the item only when `full` is set.
   Every access is relaxed (or plain): nothing orders the item's store before `full`'s. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

int item;
atomic_int full;

void enqueue(int v)
{
    item = v;
    atomic_store_explicit(&full, 1, memory_order_relaxed);
}

int dequeue(void)
{
    if (atomic_load_explicit(&full, memory_order_relaxed) == 0)
        return -1;  /* empty */
    return item;
}

void *producer(void *arg)
{
    enqueue(42);
    return NULL;
}

void *consumer(void *arg)
{
    int v = dequeue();
    assert(v == -1 || v == 42);
    return NULL;
}

int main(void)
{
    pthread_t p, c;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    return 0;
}
