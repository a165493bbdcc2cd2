/* Dining philosophers, each taking the left fork then the right one: with N philosophers all
   holding their left fork, every thread waits for a mutex its neighbour holds (deadlock).
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
    pthread_mutex_lock(&fork_[i]);
    pthread_mutex_lock(&fork_[(i + 1) % N]);
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
