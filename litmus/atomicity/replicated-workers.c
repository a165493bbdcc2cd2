/* The replicated worker framework (Dwyer and Wallentine, the seed's Fig. 6(b)), in C: workers
   take work from a shared pool, may put new work back, and count themselves idle for the
   termination test. The pool keeps its work in a synchronized Vector (theCollection) that only
   the pool's methods touch, with the pool's lock held, so the Vector's lock is dominated by
   the pool's; takeN returns its work in a Vector of the calling worker's own (returnVal,
   thread-local). Lipton's movers see takeN as acquire, release, acquire... (not atomic: noise),
   independence sees every step of it independent but the pool's acquire (atomic). markIdle
   nests the idle counter's lock, which isFinished also takes alone, inside the pool's: movers
   see R R .. L L (atomic), independence sees two dependent acquires (noise). Every Vector
   and pool method is specified atomic. Harness: main and two workers, two items of work. */
#include <pthread.h>
#include <atomicity.h>

#define WORKERS 2
#define CAP 3
#define COLL 0 /* vector 0 is the pool's collection; vector 1 + w is worker w's returnVal */

pthread_mutex_t vlock[3];
int vcount[3];
int vdata[9]; /* vector v holds vdata[v*CAP] .. vdata[v*CAP + CAP - 1] */

pthread_mutex_t pool;
pthread_mutex_t idle_lock;
int idle;
int done_work;

int vec_size(int v)
{
    int n;
    ATOMIC_BEGIN();
    pthread_mutex_lock(&vlock[v]);
    n = vcount[v];
    pthread_mutex_unlock(&vlock[v]);
    ATOMIC_END();
    return n;
}

void vec_add(int v, int x)
{
    ATOMIC_BEGIN();
    pthread_mutex_lock(&vlock[v]);
    vdata[v * CAP + vcount[v]] = x;
    vcount[v] = vcount[v] + 1;
    pthread_mutex_unlock(&vlock[v]);
    ATOMIC_END();
}

int vec_take(int v)
{
    int x;
    ATOMIC_BEGIN();
    pthread_mutex_lock(&vlock[v]);
    vcount[v] = vcount[v] - 1;
    x = vdata[v * CAP + vcount[v]];
    pthread_mutex_unlock(&vlock[v]);
    ATOMIC_END();
    return x;
}

void pool_put(int x)
{
    ATOMIC_BEGIN();
    pthread_mutex_lock(&pool);
    vec_add(COLL, x);
    pthread_mutex_unlock(&pool);
    ATOMIC_END();
}

/* Fig. 6(b): up to n items of work moved from theCollection into the caller's returnVal */
void pool_take_n(int n, int ret)
{
    ATOMIC_BEGIN();
    pthread_mutex_lock(&pool);
    for (int k = 0; k < n; k++) {
        if (vec_size(COLL) > 0) {
            int x = vec_take(COLL);
            vec_add(ret, x);
        }
    }
    pthread_mutex_unlock(&pool);
    ATOMIC_END();
}

void mark_idle(void)
{
    ATOMIC_BEGIN();
    pthread_mutex_lock(&pool);
    pthread_mutex_lock(&idle_lock);
    idle = idle + 1;
    pthread_mutex_unlock(&idle_lock);
    pthread_mutex_unlock(&pool);
    ATOMIC_END();
}

int is_finished(void)
{
    int all;
    ATOMIC_BEGIN();
    pthread_mutex_lock(&idle_lock);
    all = idle == WORKERS;
    pthread_mutex_unlock(&idle_lock);
    ATOMIC_END();
    return all;
}

void *worker(void *arg)
{
    int w = (int)(long)arg;
    pool_take_n(1, 1 + w);
    if (vec_size(1 + w) > 0) {
        int x = vec_take(1 + w);
        if (x > 1)
            pool_put(x - 1); /* new work */
    }
    mark_idle();
    if (is_finished())
        done_work = done_work + 0; /* the last idle worker sees the end */
    return NULL;
}

int main(void)
{
    pthread_t t0, t1;
    pool_put(2);
    pool_put(1);
    pthread_create(&t0, NULL, worker, (void *)0);
    pthread_create(&t1, NULL, worker, (void *)1);
    pthread_join(t0, NULL);
    pthread_join(t1, NULL);
    int finished = is_finished();
    return 0;
}
