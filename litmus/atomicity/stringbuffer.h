/* The StringBuffer methods both StringBuffer programs share (all but append): each one
   synchronized on its buffer's mutex and specified atomic. See stringbuffer.c. */
#include <pthread.h>
#include <assert.h>
#include <atomicity.h>

#define CAP 2
pthread_mutex_t lock[2];
int count[2];
int value[4]; /* buffer b holds value[b*CAP] .. value[b*CAP + CAP - 1] */

static void expand_capacity(int b, int min)
{
    assert(min <= CAP); /* a fixed capacity: growing past it is outside this model */
}

int sb_length(int b)
{
    int n;
    ATOMIC_BEGIN();
    pthread_mutex_lock(&lock[b]);
    n = count[b];
    pthread_mutex_unlock(&lock[b]);
    ATOMIC_END();
    return n;
}

int sb_capacity(int b)
{
    int n;
    ATOMIC_BEGIN();
    pthread_mutex_lock(&lock[b]);
    n = CAP;
    pthread_mutex_unlock(&lock[b]);
    ATOMIC_END();
    return n;
}

void sb_ensure_capacity(int b, int min)
{
    ATOMIC_BEGIN();
    pthread_mutex_lock(&lock[b]);
    expand_capacity(b, min);
    pthread_mutex_unlock(&lock[b]);
    ATOMIC_END();
}

void sb_set_length(int b, int n)
{
    ATOMIC_BEGIN();
    pthread_mutex_lock(&lock[b]);
    assert(0 <= n);
    expand_capacity(b, n);
    for (int i = count[b]; i < n; i++)
        value[b * CAP + i] = 0;
    count[b] = n;
    pthread_mutex_unlock(&lock[b]);
    ATOMIC_END();
}

int sb_char_at(int b, int i)
{
    int c;
    ATOMIC_BEGIN();
    pthread_mutex_lock(&lock[b]);
    assert(0 <= i && i < count[b]);
    c = value[b * CAP + i];
    pthread_mutex_unlock(&lock[b]);
    ATOMIC_END();
    return c;
}

void sb_set_char_at(int b, int i, int c)
{
    ATOMIC_BEGIN();
    pthread_mutex_lock(&lock[b]);
    assert(0 <= i && i < count[b]);
    value[b * CAP + i] = c;
    pthread_mutex_unlock(&lock[b]);
    ATOMIC_END();
}

void sb_get_chars(int b, int begin, int end, int dst, int dst_begin)
{
    ATOMIC_BEGIN();
    pthread_mutex_lock(&lock[b]);
    assert(0 <= begin && begin <= end && end <= count[b]); /* StringIndexOutOfBoundsException */
    for (int i = begin; i < end; i++)
        value[dst * CAP + dst_begin + i - begin] = value[b * CAP + i];
    pthread_mutex_unlock(&lock[b]);
    ATOMIC_END();
}

void sb_append_char(int b, int c)
{
    ATOMIC_BEGIN();
    pthread_mutex_lock(&lock[b]);
    expand_capacity(b, count[b] + 1);
    value[b * CAP + count[b]] = c;
    count[b] = count[b] + 1;
    pthread_mutex_unlock(&lock[b]);
    ATOMIC_END();
}

void sb_reverse(int b)
{
    ATOMIC_BEGIN();
    pthread_mutex_lock(&lock[b]);
    if (count[b] == 2) {
        int c = value[b * CAP];
        value[b * CAP] = value[b * CAP + 1];
        value[b * CAP + 1] = c;
    }
    pthread_mutex_unlock(&lock[b]);
    ATOMIC_END();
}
