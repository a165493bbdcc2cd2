/* java.lang.StringBuffer (JDK 1.4) as Flanagan and Qadeer's atomicity paper shows it (their
   Fig. 1(a), the seed's Fig. 1(a)), in C: every method is `synchronized` on its buffer's mutex
   and specified atomic. append(sb) reads sb.length() under sb's lock, releases it, and only
   then copies sb's characters with sb.getChars(): a thread that shortens sb in between makes
   the length stale (getChars throws StringIndexOutOfBoundsException, here an assertion).
   Harness: three threads, as in the seed's Table 1: main fills buffer 1, one thread appends
   buffer 1 to buffer 0, another empties buffer 1; main then calls the remaining methods.
   Java's re-entrant locking is spelled out: append calls the unlocked helper for
   ensureCapacity, as the JDK's synchronized append calls the synchronized one. */
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

void sb_append(int b, int sb)
{
    ATOMIC_BEGIN();
    pthread_mutex_lock(&lock[b]);
    int len = sb_length(sb);
    int newcount = count[b] + len;
    expand_capacity(b, newcount);
    sb_get_chars(sb, 0, len, b, count[b]);
    count[b] = newcount;
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

void *appender(void *arg)
{
    sb_append(0, 1);
    return NULL;
}

void *truncator(void *arg)
{
    sb_set_length(1, 0);
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    sb_append_char(1, 7);
    sb_append_char(1, 8);
    pthread_create(&t1, NULL, appender, NULL);
    pthread_create(&t2, NULL, truncator, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    sb_ensure_capacity(0, sb_capacity(0));
    sb_reverse(0);
    if (sb_length(0) > 0)
        sb_set_char_at(0, 0, sb_char_at(0, 0));
    return 0;
}
