/* mmdsl's <pthread.h>: threads and mutexes as its C program front end supports them. */
#ifndef MMDSL_PTHREAD_H
#define MMDSL_PTHREAD_H
typedef int pthread_t;
typedef int pthread_attr_t;
typedef int pthread_mutex_t;
typedef int pthread_mutexattr_t;
#define PTHREAD_MUTEX_INITIALIZER 0
#endif
