/* The Michael-Scott queue (PODC 1996) without freeing: a dummy node, enqueue links a node at the
   tail by compare-and-swap and swings the tail, dequeue swings the head. One thread enqueues two
   values, another dequeues twice: what it gets is in order, none lost. */
#include <stdatomic.h>
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

struct node { int value; struct node *_Atomic next; };
struct node *_Atomic head;
struct node *_Atomic tail;

void enqueue(int v)
{
    struct node *n = malloc(sizeof(struct node));
    n->value = v;
    atomic_store_explicit(&n->next, NULL, memory_order_relaxed);
    while (1) {
        struct node *t = atomic_load_explicit(&tail, memory_order_acquire);
        struct node *next = atomic_load_explicit(&t->next, memory_order_acquire);
        if (next == NULL) {
            if (atomic_compare_exchange_strong_explicit(&t->next, &next, n, memory_order_release,
                                                        memory_order_relaxed)) {
                atomic_compare_exchange_strong_explicit(&tail, &t, n, memory_order_release,
                                                        memory_order_relaxed);
                return;
            }
        } else {
            atomic_compare_exchange_strong_explicit(&tail, &t, next, memory_order_release,
                                                    memory_order_relaxed);
        }
    }
}

int dequeue(void)
{
    while (1) {
        struct node *h = atomic_load_explicit(&head, memory_order_acquire);
        struct node *next = atomic_load_explicit(&h->next, memory_order_acquire);
        if (next == NULL)
            return 0;
        int v = next->value;
        if (atomic_compare_exchange_strong_explicit(&head, &h, next, memory_order_release,
                                                    memory_order_relaxed))
            return v;
    }
}

void *producer(void *arg)
{
    enqueue(1);
    enqueue(2);
    return NULL;
}

void *consumer(void *arg)
{
    int a = dequeue();
    int b = dequeue();
    assert(a == 0 || b == 0 || a < b);
    assert(a != 2 || b == 0);       /* 2 first, then nothing: 1 was lost */
    return NULL;
}

int main(void)
{
    struct node *dummy = malloc(sizeof(struct node));
    atomic_store_explicit(&dummy->next, NULL, memory_order_relaxed);
    head = dummy;
    tail = dummy;
    pthread_t p, c;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    return 0;
}
