/* A seqlock: the writer makes the sequence number odd, writes both data words, makes it even;
   the reader retries while the number is odd or changed across its reads. It sees both words
   of one write (never a torn pair). Fences as in Boehm's "Can seqlocks get along with
   programming language memory models?". */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int seq;
atomic_int data1, data2;

void *writer(void *arg)
{
    int s = atomic_load_explicit(&seq, memory_order_relaxed);
    atomic_store_explicit(&seq, s + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&data1, 1, memory_order_relaxed);
    atomic_store_explicit(&data2, 1, memory_order_relaxed);
    atomic_store_explicit(&seq, s + 2, memory_order_release);
    return NULL;
}

void *reader(void *arg)
{
    int s0, s1, d1, d2;
    do {
        s0 = atomic_load_explicit(&seq, memory_order_acquire);
        d1 = atomic_load_explicit(&data1, memory_order_relaxed);
        d2 = atomic_load_explicit(&data2, memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        s1 = atomic_load_explicit(&seq, memory_order_relaxed);
    } while (s0 % 2 == 1 || s0 != s1);
    assert(d1 == d2);
    return NULL;
}

int main(void)
{
    pthread_t w, r;
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&r, NULL, reader, NULL);
    pthread_join(w, NULL);
    pthread_join(r, NULL);
    return 0;
}
