/* Two threads increment a plain int: a data race under RC11 (mmdsl check -m rc11.cat). */
#include <pthread.h>
#include <assert.h>

int counter;

void *worker(void *arg)
{
    counter = counter + 1;
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
