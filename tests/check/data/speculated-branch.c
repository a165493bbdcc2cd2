/* A branch on an acquire load, loop-free: under models that let the explorer guess the branch
   (rmo, armv8), the paths a wrong guess starts end in no execution; they are not a livelock. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int full;
int item;

void *consumer(void *arg)
{
    int v = -1;
    if (atomic_load_explicit(&full, memory_order_acquire) == 1)
        v = item;
    assert(v == -1 || v == 42);
    return NULL;
}

int main(void)
{
    pthread_t c;
    pthread_create(&c, NULL, consumer, NULL);
    item = 42;
    atomic_store_explicit(&full, 1, memory_order_release);
    pthread_join(c, NULL);
    return 0;
}
