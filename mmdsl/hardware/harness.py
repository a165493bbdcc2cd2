"""The C source of a test's harness: pinned pthreads, a spinning barrier, outcomes counted in C.

Shape (litmus7's, simplified): each location is an array of cells, one per iteration of a
run (``size`` iterations); a run releases the threads together through a sense-reversing
spin barrier before every iteration, each thread runs its code on cell ``i`` and stores its
observed registers in per-iteration arrays; after the run thread 0 reads the final memory
cells and the registers of every iteration, counts each final state in a hash table, and
sets the cells back to their initial values. ``runs`` runs make one process. The process
prints a histogram that ``runner.parse_histogram`` reads::

    mmdsl-hw 1
    keys K
    threads T cpus C pinned 0|1
    iterations N size S runs R
    time_us U
    state COUNT V1 ... VK        (one line per distinct final state)
    overflow M
    end

Command line of the harness: ITERATIONS SIZE SERIAL (SERIAL=1, a debugging switch, runs the
threads one after the other in every iteration: a deliberately broken harness that can
show only sequential outcomes).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import UnsupportedError
from ..core.program import Program
from .codegen import c_int, thread_code

MAX_THREADS = 16
MAX_KEYS = 64

_PRELUDE = r"""
#define _GNU_SOURCE
#include <inttypes.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
%(atomics)s
#define NT %(nthreads)d
#define NK %(nkeys)d
#define TABLE (1 << 14)

static long size, runs, serial;
static int pinned = 1, ncpus = 1, cpu_of[NT];
static long spin_limit = 20000; /* spins before yielding (or, oversubscribed, before sleeping) */
static int64_t hw_sink;

static int64_t hw_div(int64_t a, int64_t b) { return (b == 0 || (a == INT64_MIN && b == -1)) ? 0 : a / b; }
static int64_t hw_mod(int64_t a, int64_t b) { return (b == 0 || (a == INT64_MIN && b == -1)) ? 0 : a %% b; }
static int64_t hw_shl(int64_t a, int64_t b) { return (b < 0 || b > 63) ? 0 : (int64_t)((uint64_t)a << b); }
static int64_t hw_shr(int64_t a, int64_t b) { return (b < 0 || b > 63) ? (a < 0 ? -1 : 0) : (a >> b); }

/* a sense-reversing barrier. When every thread has its own core it spins (pinned threads
   are released within a few cycles of each other). When threads outnumber cores a waiter
   spins a little, then sleeps on a futex that the last arriver wakes: yielding would hand
   the core to any other process on a shared machine for a whole time slice. */
static volatile int bar_count, bar_sense;
static int oversubscribed;
static void futex_wait(volatile int *at, int val) { syscall(SYS_futex, at, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0); }
static void futex_wake(volatile int *at) { syscall(SYS_futex, at, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0); }
static void barrier_wait(int *sense) {
    int s = !*sense;
    *sense = s;
    if (__atomic_add_fetch(&bar_count, 1, __ATOMIC_ACQ_REL) == NT) {
        __atomic_store_n(&bar_count, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&bar_sense, s, __ATOMIC_RELEASE);
        if (oversubscribed) futex_wake(&bar_sense);
    } else if (!oversubscribed) {
        long spins = 0;
        while (__atomic_load_n(&bar_sense, __ATOMIC_ACQUIRE) != s)
            if (++spins >= spin_limit) { sched_yield(); spins = 0; }
    } else {
        for (int spins = 0; __atomic_load_n(&bar_sense, __ATOMIC_ACQUIRE) != s; spins++)
            if (spins >= spin_limit) futex_wait(&bar_sense, !s); /* returns at once if already released */
    }
}

/* --serial (debugging): the threads take turns, so only sequential outcomes can appear */
static volatile int turn;
static void wait_turn(int t) {
    long spins = 0;
    while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != t)
        if (++spins >= spin_limit) { sched_yield(); spins = 0; }
}
static void pass_turn(int t) { __atomic_store_n(&turn, (t + 1) %% NT, __ATOMIC_RELEASE); }

/* final states: a hash table of NK-value tuples with their counts */
static int64_t keys_of[TABLE][NK];
static long count_of[TABLE];
static long overflow;
static void count_state(const int64_t *v) {
    uint64_t h = 1469598103934665603ULL;
    for (int k = 0; k < NK; k++) { h ^= (uint64_t)v[k]; h *= 1099511628211ULL; }
    for (long probe = 0; probe < TABLE; probe++) {
        long at = (long)((h + (uint64_t)probe) & (TABLE - 1));
        if (count_of[at] == 0) { memcpy(keys_of[at], v, sizeof(int64_t) * NK); count_of[at] = 1; return; }
        if (memcmp(keys_of[at], v, sizeof(int64_t) * NK) == 0) { count_of[at]++; return; }
    }
    overflow++;
}

static void *xalloc(size_t n) {
    void *p = NULL;
    if (posix_memalign(&p, 64, n ? n : 64) != 0) { fprintf(stderr, "out of memory\n"); exit(3); }
    memset(p, 0, n);
    return p;
}
"""

_WORKER = r"""
static void *worker(void *arg) {
    int t = (int)(intptr_t)arg, sense = 0;
    if (pinned) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu_of[t], &set);
        if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0) pinned = 0;
    }
    for (long run = 0; run < runs; run++) {
        barrier_wait(&sense);
        for (long i = 0; i < size; i++) {
            barrier_wait(&sense);
            if (serial) wait_turn(t);
            code[t](i);
            if (serial) pass_turn(t);
        }
        barrier_wait(&sense);
        if (t == 0) { collect(); reset(); }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: harness ITERATIONS SIZE SERIAL\n"); return 2; }
    long iterations = strtol(argv[1], NULL, 10);
    size = strtol(argv[2], NULL, 10);
    serial = strtol(argv[3], NULL, 10);
    if (iterations < 1 || size < 1) { fprintf(stderr, "bad ITERATIONS or SIZE\n"); return 2; }
    if (size > iterations) size = iterations;
    runs = (iterations + size - 1) / size;
    allocate();
    reset();
    cpu_set_t allowed;
    int cpus[CPU_SETSIZE], n = 0;
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
        for (int c = 0; c < CPU_SETSIZE; c++) if (CPU_ISSET(c, &allowed)) cpus[n++] = c;
    }
    if (n == 0) { pinned = 0; n = 1; cpus[0] = 0; }
    ncpus = n;
    if (NT > n) { oversubscribed = 1; spin_limit = 200; }
    for (int t = 0; t < NT; t++) cpu_of[t] = cpus[t %% n];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_t th[NT];
    for (int t = 1; t < NT; t++)
        if (pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t) != 0) { fprintf(stderr, "pthread_create\n"); return 3; }
    worker((void *)(intptr_t)0);
    for (int t = 1; t < NT; t++) pthread_join(th[t], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long us = (long)((t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000L);
    printf("mmdsl-hw 1\nkeys %%d\nthreads %%d cpus %%d pinned %%d\n", NK, NT, ncpus, pinned);
    printf("iterations %%ld size %%ld runs %%ld\ntime_us %%ld\n", runs * size, size, runs, us);
    for (long at = 0; at < TABLE; at++) {
        if (!count_of[at]) continue;
        printf("state %%ld", count_of[at]);
        for (int k = 0; k < NK; k++) printf(" %%" PRId64, keys_of[at][k]);
        printf("\n");
    }
    printf("overflow %%ld\nend\n", overflow);
    return 0;
}
"""


@dataclass
class Harness:
    """A harness's C source and what its histogram's columns are."""

    source: str
    keys: list[tuple]  # the observed keys, in the order of each state line's values
    backend: str  # "asm" (x86-64 inline assembly) or "c11"
    nthreads: int


def observed_keys(program: Program) -> list[tuple]:
    """The condition's keys, then those of ``locations [...]`` (the model's final-state keys)."""
    out: dict = {}
    for key in [*program.condition.keys(), *program.observed]:
        out[key] = None
    return list(out)


def build_harness(program: Program, backend: str) -> Harness:
    """The C source of ``program``'s harness for ``backend`` ("asm" or "c11")."""
    _refuse_unsupported(program)
    keys = observed_keys(program)
    locs = {loc: f"loc_{k}" for k, loc in enumerate(program.locations)}
    threads = [thread_code(program, t, locs, backend) for t in program.threads]
    cell_type = "_Atomic int64_t" if backend == "c11" else "int64_t"
    out = [_PRELUDE % {"atomics": "#include <stdatomic.h>" if backend == "c11" else "",
                       "nthreads": len(threads), "nkeys": max(len(keys), 1)}]
    out += [f"static {cell_type} *{c};" for c in locs.values()]
    regs_out = {}  # ("reg", tid, name) -> C array of its value per iteration
    for k, key in enumerate(keys):
        if key[0] == "reg":
            regs_out[key] = f"out_{k}"
            out.append(f"static int64_t *out_{k};")
    out.append("static void allocate(void) {")
    out += [f"    {c} = xalloc(sizeof(*{c}) * (size_t)size);" for c in locs.values()]
    out += [f"    {c} = xalloc(sizeof(int64_t) * (size_t)size);" for c in regs_out.values()]
    out.append("}")
    out.append("static void reset(void) {\n    for (long i = 0; i < size; i++) {")
    for loc, c in locs.items():
        try:
            out.append(f"        {c}[i] = {c_int(program.init.get(loc, 0))};")
        except UnsupportedError as err:
            raise UnsupportedError(f"{program.path or program.name}: the initial value of '{loc}': "
                                   f"{err.message}") from None
    out.append("    }\n}")
    out.append("static void collect(void) {\n    int64_t v[NK] = {0};\n    for (long i = 0; i < size; i++) {")
    for k, key in enumerate(keys):
        src = regs_out[key] if key[0] == "reg" else locs[key[1]]
        out.append(f"        v[{k}] = {src}[i];")
    out.append("        count_state(v);\n    }\n}")
    for tc in threads:
        out.append(f"static void code_{tc.tid}(long i) {{")
        out += tc.lines
        for key, arr in regs_out.items():
            if key[1] == tc.tid:
                out.append(f"    {arr}[i] = {tc.names.reg(key[2])};")
        out.append("}")
    out.append("static void (*const code[NT])(long) = {" + ", ".join(f"code_{t.tid}" for t in threads) + "};")
    out.append(_WORKER % {})
    return Harness("\n".join(out), keys, backend, len(threads))


def _refuse_unsupported(program: Program) -> None:
    if not program.threads:
        raise UnsupportedError(f"{program.name}: a test without threads")
    if len(program.threads) > MAX_THREADS:
        raise UnsupportedError(f"{program.name}: {len(program.threads)} threads (the harness runs at most "
                               f"{MAX_THREADS})")
    if len(observed_keys(program)) > MAX_KEYS:
        raise UnsupportedError(f"{program.name}: more than {MAX_KEYS} observed registers and locations")
    if program.state_property:
        raise UnsupportedError(f"{program.name}: a condition on where threads are (the harness observes final states)")
    if program.filter is not None:
        raise UnsupportedError(f"{program.name}: a 'filter' (the harness counts every final state)")
    if program.init_choices or any(t.reg_choices for t in program.threads):
        raise UnsupportedError(f"{program.name}: initial values chosen among several")
    known = set(program.locations)
    for key in observed_keys(program):
        if key[0] == "reg" and not any(t.tid == key[1] for t in program.threads):
            raise UnsupportedError(f"{program.name}: the condition names thread {key[1]}, which the test lacks")
        if key[0] == "mem" and key[1] not in known:
            raise UnsupportedError(f"{program.name}: the location '{key[1]}' is not one of the test's")
