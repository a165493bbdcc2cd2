/* Treiber's stack, broken: push writes the top pointer with a plain store after reading it (no
   compare-and-swap), so two pushes can lose one node and a pop finds the stack empty.
   The correct version is treiber.c. */
#include <stdatomic.h>
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

struct node { int value; struct node *next; };
struct node *_Atomic top;

void push(int v)
{
    struct node *n = malloc(sizeof(struct node));
    n->value = v;
    struct node *old = atomic_load_explicit(&top, memory_order_acquire);
    n->next = old;
    atomic_store_explicit(&top, n, memory_order_release);
}

int pop(void)
{
    struct node *old, *next;
    do {
        old = atomic_load_explicit(&top, memory_order_acquire);
        if (old == NULL)
            return 0;
        next = old->next;
    } while (!atomic_compare_exchange_strong_explicit(&top, &old, next, memory_order_acquire,
                                                      memory_order_relaxed));
    int v = old->value;
    free(old);
    return v;
}

void *worker(void *arg)
{
    push((int)(long)arg);
    assert(pop() != 0);
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)(long)(i + 1));
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    return 0;
}
