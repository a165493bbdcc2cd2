/* Treiber's lock-free stack: push and pop by compare-and-swap on the top pointer, nodes from
   malloc; a popped node is not freed (treiber-free.c shows why). Each of two threads pushes its
   value and pops one: both pops find a node. Correct under every model (release CAS publishes
   the node). */
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
    struct node *old;
    do {
        old = atomic_load_explicit(&top, memory_order_acquire);
        n->next = old;
    } while (!atomic_compare_exchange_strong_explicit(&top, &old, n, memory_order_release,
                                                      memory_order_relaxed));
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
    return old->value;
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
