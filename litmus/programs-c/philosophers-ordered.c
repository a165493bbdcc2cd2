/* Dining philosophers with an ordered fork protocol: each takes the lower-numbered fork first,
   so no cycle of waiting can form: no deadlock for any N.
   N is set with -DN=...; the default is 3. */
#include <pthread.h>

#ifndef N
#define N 3
#endif

pthread_mutex_t fork_[N];
int eaten[N];

void *philosopher(void *arg)
{
    int i = (int)(long)arg;
    int first = i < (i + 1) % N ? i : (i + 1) % N, second = i < (i + 1) % N ? (i + 1) % N : i;
    pthread_mutex_lock(&fork_[first]);
    pthread_mutex_lock(&fork_[second]);
    eaten[i] = 1;
    pthread_mutex_unlock(&fork_[(i + 1) % N]);
    pthread_mutex_unlock(&fork_[i]);
    return NULL;
}

int main(void)
{
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], NULL, philosopher, (void *)(long)i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    return 0;
}
