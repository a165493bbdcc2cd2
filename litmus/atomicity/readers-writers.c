/* Readers and writers with specific notification: Doug Lea's RWVSN (Concurrent Programming in
   Java, the seed's Fig. 7), in C. A writer that cannot go on queues a monitor of its own in a
   synchronized Vector and waits on it; notifyWriter takes the oldest monitor off the vector,
   notifies it and counts the writer active. Every Vector method and the protocol's
   allowReader, allowWriter, notifyReaders, notifyWriter, afterRead and afterWrite are
   specified atomic; beforeRead and beforeWrite wait, so they are not. Java's wait() is a
   release of the monitor, a re-acquire and a re-test of the condition (a spin over the
   mutex, which explores the same orders); its re-entrant `synchronized` calls are spelled
   out as calls made with the lock held. Harness: main, one reader, two writers. */
#include <pthread.h>
#include <atomicity.h>

#define WRITERS 2

pthread_mutex_t self;      /* the RWVSN object's monitor */
int active_readers, active_writers, waiting_readers, reader_round;

pthread_mutex_t vec;       /* java.util.Vector waitingWriterMonitors_: its own monitor and data */
int vec_count;
int vec_data[WRITERS];

pthread_mutex_t monitor[WRITERS]; /* each writer's own monitor object */
int granted[WRITERS];
int shared_data;

int vec_size(void)
{
    int n;
    ATOMIC_BEGIN();
    pthread_mutex_lock(&vec);
    n = vec_count;
    pthread_mutex_unlock(&vec);
    ATOMIC_END();
    return n;
}

int vec_first(void)
{
    int w;
    ATOMIC_BEGIN();
    pthread_mutex_lock(&vec);
    w = vec_data[0];
    pthread_mutex_unlock(&vec);
    ATOMIC_END();
    return w;
}

void vec_remove_first(void)
{
    ATOMIC_BEGIN();
    pthread_mutex_lock(&vec);
    for (int i = 0; i + 1 < WRITERS; i++)
        vec_data[i] = vec_data[i + 1];
    vec_count = vec_count - 1;
    pthread_mutex_unlock(&vec);
    ATOMIC_END();
}

void vec_add(int w)
{
    ATOMIC_BEGIN();
    pthread_mutex_lock(&vec);
    vec_data[vec_count] = w;
    vec_count = vec_count + 1;
    pthread_mutex_unlock(&vec);
    ATOMIC_END();
}

/* called with self held */
int allow_reader(void)
{
    int ok;
    ATOMIC_BEGIN();
    int n = vec_size();
    ok = n == 0 && active_writers == 0;
    ATOMIC_END();
    return ok;
}

int allow_writer(void)
{
    int ok;
    ATOMIC_BEGIN();
    ok = active_readers == 0 && active_writers == 0;
    ATOMIC_END();
    return ok;
}

void notify_readers(void)
{
    ATOMIC_BEGIN();
    active_readers = active_readers + waiting_readers;
    waiting_readers = 0;
    reader_round = reader_round + 1; /* notifyAll() */
    ATOMIC_END();
}

void notify_writer(void)
{
    ATOMIC_BEGIN();
    if (vec_size() > 0) {
        int oldest = vec_first();
        vec_remove_first();
        pthread_mutex_lock(&monitor[oldest]);
        granted[oldest] = 1; /* oldest.notify() */
        pthread_mutex_unlock(&monitor[oldest]);
        active_writers = active_writers + 1;
    }
    ATOMIC_END();
}

void after_read(void)
{
    ATOMIC_BEGIN();
    pthread_mutex_lock(&self);
    active_readers = active_readers - 1;
    if (active_readers == 0)
        notify_writer();
    pthread_mutex_unlock(&self);
    ATOMIC_END();
}

void after_write(void)
{
    ATOMIC_BEGIN();
    pthread_mutex_lock(&self);
    active_writers = active_writers - 1;
    if (waiting_readers > 0)
        notify_readers();
    else
        notify_writer();
    pthread_mutex_unlock(&self);
    ATOMIC_END();
}

void before_read(void)
{
    pthread_mutex_lock(&self);
    if (allow_reader()) {
        active_readers = active_readers + 1;
    } else {
        waiting_readers = waiting_readers + 1;
        int round = reader_round;
        while (reader_round == round) { /* wait() */
            pthread_mutex_unlock(&self);
            pthread_mutex_lock(&self);
        }
    }
    pthread_mutex_unlock(&self);
}

void before_write(int w)
{
    int queued = 0;
    pthread_mutex_lock(&monitor[w]);
    pthread_mutex_lock(&self);
    if (allow_writer()) {
        active_writers = active_writers + 1;
    } else {
        vec_add(w);
        queued = 1;
    }
    pthread_mutex_unlock(&self);
    if (queued) {
        while (!granted[w]) { /* monitor.wait() */
            pthread_mutex_unlock(&monitor[w]);
            pthread_mutex_lock(&monitor[w]);
        }
    }
    pthread_mutex_unlock(&monitor[w]);
}

void *reader(void *arg)
{
    before_read();
    int seen = shared_data;
    after_read();
    return NULL;
}

void *writer(void *arg)
{
    int w = (int)(long)arg;
    before_write(w);
    shared_data = w + 1;
    after_write();
    return NULL;
}

int main(void)
{
    pthread_t r, w0, w1;
    pthread_create(&r, NULL, reader, NULL);
    pthread_create(&w0, NULL, writer, (void *)0);
    pthread_create(&w1, NULL, writer, (void *)1);
    pthread_join(r, NULL);
    pthread_join(w0, NULL);
    pthread_join(w1, NULL);
    return 0;
}
