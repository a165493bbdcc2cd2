#!/bin/sh
# Regenerates the herd7 outputs of this folder (computed with herd7 7.58, options
# -set-libdir <herd libdir> -I <herd-cats> -model <herd-cats>/M.cat, one test per run:
# herd skips a test whose name an earlier file of the same run had). Run from the
# repository root with herd7 on PATH and ../shared/reference/herd-cats beside the repository.
set -e
CATS=../shared/reference/herd-cats
LIB=${HERD_LIBDIR:-/work/herd-build/herdtools7/herd/libdir}
OUT=tests/axiomatic/data/own-co
run() {  # model, output, files...
    m=$1; out=$2; shift 2
    : > "$OUT/$out"
    for f in "$@"; do
        echo "#file $f" >> "$OUT/$out"
        herd7 -set-libdir "$LIB" -I "$CATS" -model "$CATS/$m" "$f" >> "$OUT/$out"
    done
}
CLASSIC="$(ls litmus/classic/*.litmus litmus/classic/lisa/*.litmus) $OUT/W3+unobserved.litmus $OUT/W3+observed.litmus
    litmus/x86/tests/non-mixed-size/CO/S+poss.litmus"
for m in uniproccat sccat coscat minimalcat cos-ok-opt; do
    run $m.cat $m.classic.herd.txt $CLASSIC
done
run prettycat.cat prettycat.ppc-arm.herd.txt $(find litmus/ppc litmus/arm -name '*.litmus' | sort)
run herdcat.cat herdcat.sample.herd.txt $(find litmus/ppc litmus/arm -name '*.litmus' | sort | awk 'NR%10==0')
