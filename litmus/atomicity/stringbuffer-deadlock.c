/* The seed's Fig. 6(a): StringBuffer.append "fixed" by holding sb's lock too, so the length
   cannot go stale. Flanagan and Qadeer's type system then calls append atomic, but two
   threads appending two buffers to each other in opposite orders deadlock: each holds its
   receiver's lock and waits for the other's. Lipton's reduction needs every atomic block to
   be able to complete (restriction R1), so append is definitely not atomic. Harness: three
   threads; main fills buffer 1 and calls the other methods before it starts two threads
   that call append(0, 1) and append(1, 0). The copy is written out in append (it holds
   sb's lock already; C's mutexes are not re-entrant as Java's monitors are). */
#include "stringbuffer.h"

void sb_append(int b, int sb)
{
    ATOMIC_BEGIN();
    pthread_mutex_lock(&lock[b]);
    pthread_mutex_lock(&lock[sb]);
    int len = count[sb];
    int newcount = count[b] + len;
    expand_capacity(b, newcount);
    for (int i = 0; i < len; i++)
        value[b * CAP + count[b] + i] = value[sb * CAP + i];
    count[b] = newcount;
    pthread_mutex_unlock(&lock[sb]);
    pthread_mutex_unlock(&lock[b]);
    ATOMIC_END();
}

void *forward(void *arg)
{
    sb_append(0, 1);
    return NULL;
}

void *backward(void *arg)
{
    sb_append(1, 0);
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    sb_append_char(1, 7);
    sb_ensure_capacity(0, sb_capacity(0));
    int c = sb_char_at(1, 0);
    sb_set_char_at(1, 0, c + sb_length(1));
    sb_reverse(1);
    sb_set_length(1, 1);
    sb_get_chars(1, 0, 1, 1, 0);
    pthread_create(&t1, NULL, forward, NULL);
    pthread_create(&t2, NULL, backward, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    return 0;
}
