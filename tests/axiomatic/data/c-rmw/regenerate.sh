#!/bin/sh
# Regenerates the herd7 outputs of this folder (computed with herd7 7.58, options
# -set-libdir <herd libdir> -I <herd-cats> -model <herd-cats>/M.cat, plus
# -macros <herd-cats>/linux-kernel.def for the litmus/linux tests; one test per run).
# Run from the repository root with herd7 on PATH and ../shared/reference/herd-cats beside
# the repository. The tests: every litmus/c11 test with a C11 read-modify-write, and the
# litmus/linux tests with a kernel one (xchg, cmpxchg, atomic_*_return ...) and no lock.
set -e
CATS=../shared/reference/herd-cats
LIB=${HERD_LIBDIR:-/work/herd-build/herdtools7/herd/libdir}
OUT=tests/axiomatic/data/c-rmw
C11=$(grep -rlE "atomic_fetch|atomic_exchange|atomic_compare_exchange" litmus/c11 --include=*.litmus | sort)
LINUX=$(grep -rlE "xchg|cmpxchg|_return|atomic_fetch|atomic_(inc|add|sub|dec)" litmus/linux --include=*.litmus \
        | xargs grep -L "spin_" | sort)
run() {  # model, output
    m=$1; out=$2
    : > "$OUT/$out"
    for f in $C11; do
        echo "#file $f" >> "$OUT/$out"
        herd7 -set-libdir "$LIB" -I "$CATS" -model "$CATS/$m" "$f" >> "$OUT/$out"
    done
    for f in $LINUX; do
        echo "#file $f" >> "$OUT/$out"
        herd7 -set-libdir "$LIB" -I "$CATS" -macros "$CATS/linux-kernel.def" -model "$CATS/$m" "$f" >> "$OUT/$out"
    done
}
for m in sc uniproc minimal; do
    run $m.cat $m.c-rmw.herd.txt
done
