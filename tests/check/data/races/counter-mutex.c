/* The plain counter under a mutex: no data race. */
#include <pthread.h>
#include <assert.h>

int counter;
pthread_mutex_t m;

void *worker(void *arg)
{
    pthread_mutex_lock(&m);
    counter = counter + 1;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
