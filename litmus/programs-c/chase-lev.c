/* The Chase-Lev work-stealing deque in C11 (Le, Pop, Cohen, Zappa Nardelli, PPoPP 2013), without
   resizing (an array of 4). The owner pushes two tasks and takes one from the bottom; a thief
   steals from the top, twice. No task is taken twice. */
#include <stdatomic.h>
#include <pthread.h>
#include <assert.h>

atomic_int top, bottom;
atomic_int buffer[4];
int taken[3];

void push(int x)
{
    int b = atomic_load_explicit(&bottom, memory_order_relaxed);
    atomic_store_explicit(&buffer[b % 4], x, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&bottom, b + 1, memory_order_relaxed);
}

int take(void)
{
    int b = atomic_load_explicit(&bottom, memory_order_relaxed) - 1;
    atomic_store_explicit(&bottom, b, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    int t = atomic_load_explicit(&top, memory_order_relaxed);
    int x = 0;
    if (t <= b) {
        x = atomic_load_explicit(&buffer[b % 4], memory_order_relaxed);
        if (t == b) {
            if (!atomic_compare_exchange_strong_explicit(&top, &t, t + 1, memory_order_seq_cst,
                                                         memory_order_relaxed))
                x = 0;
            atomic_store_explicit(&bottom, b + 1, memory_order_relaxed);
        }
    } else {
        atomic_store_explicit(&bottom, b + 1, memory_order_relaxed);
    }
    return x;
}

int steal(void)
{
    int t = atomic_load_explicit(&top, memory_order_acquire);
    atomic_thread_fence(memory_order_seq_cst);
    int b = atomic_load_explicit(&bottom, memory_order_acquire);
    int x = 0;
    if (t < b) {
        x = atomic_load_explicit(&buffer[t % 4], memory_order_relaxed);
        if (!atomic_compare_exchange_strong_explicit(&top, &t, t + 1, memory_order_seq_cst,
                                                     memory_order_relaxed))
            x = 0;
    }
    return x;
}

void *owner(void *arg)
{
    push(1);
    push(2);
    int x = take();
    if (x != 0) {
        assert(taken[x] == 0);
        taken[x] = 1;
    }
    return NULL;
}

void *thief(void *arg)
{
    for (int k = 0; k < 2; k++) {
        int x = steal();
        if (x != 0) {
            assert(taken[x] == 0);
            taken[x] = 1;
        }
    }
    return NULL;
}

int main(void)
{
    pthread_t o, t;
    pthread_create(&o, NULL, owner, NULL);
    pthread_create(&t, NULL, thief, NULL);
    pthread_join(o, NULL);
    pthread_join(t, NULL);
    return 0;
}
