#!/bin/sh
# Regenerates lkmm.c11.herd.txt: herd7 7.58's output for every litmus/c11 test under herd's
# Linux-kernel model, as linux-kernel.cfg runs it (one test per run):
#   herd7 -set-libdir <herd libdir> -I <herd-cats> -model <herd-cats>/linux-kernel.cat
#         -bell <herd-cats>/linux-kernel.bell -macros <herd-cats>/linux-kernel.def T.litmus
# Run from the repository root with herd7 on PATH and ../shared/reference/herd-cats beside
# the repository. fig6 and fig6_translated are left out: herd stops on them with
# "Unknown macro atomic_store (User error)" (linux-kernel.def has no atomic_store).
set -e
CATS=../shared/reference/herd-cats
LIB=${HERD_LIBDIR:-/work/tools/share/herdtools7/herd}
OUT=tests/axiomatic/data/c11-lkmm/lkmm.c11.herd.txt
: > "$OUT"
for f in $(find litmus/c11 -name '*.litmus' | grep -v '/fig6' | sort); do
    echo "#file $f" >> "$OUT"
    herd7 -set-libdir "$LIB" -I "$CATS" -model "$CATS/linux-kernel.cat" -bell "$CATS/linux-kernel.bell" \
        -macros "$CATS/linux-kernel.def" "$f" >> "$OUT"
done
