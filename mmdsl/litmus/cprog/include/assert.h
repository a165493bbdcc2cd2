/* mmdsl's <assert.h>: assert(e) stays a call, which the front end checks on every execution. */
#ifndef MMDSL_ASSERT_H
#define MMDSL_ASSERT_H
#endif
