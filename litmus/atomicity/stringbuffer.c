/* java.lang.StringBuffer (JDK 1.4) as Flanagan and Qadeer's atomicity paper shows it (their
   Fig. 1(a), the seed's Fig. 1(a)), in C: every method is `synchronized` on its buffer's mutex
   and specified atomic. append(sb) reads sb.length() under sb's lock, releases it, and only
   then copies sb's characters with sb.getChars(): a thread that shortens sb in between makes
   the length stale (getChars throws StringIndexOutOfBoundsException, here an assertion).
   Harness: three threads, as in the seed's Table 1: main fills buffer 1, one thread appends
   buffer 1 to buffer 0, another empties buffer 1; main then calls the remaining methods.
   Java's re-entrant locking is spelled out: append calls the unlocked helper for
   ensureCapacity, as the JDK's synchronized append calls the synchronized one. */
#include "stringbuffer.h"

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
