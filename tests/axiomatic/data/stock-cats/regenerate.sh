#!/bin/sh
# Regenerates the herd7 outputs of this folder (computed with herd7 7.58, built from tag
# 7.58, options -set-libdir <herd-cats> -model <herd-cats>/M.cat, one test per run: herd
# skips a test whose name an earlier file of the same run had; the Linux-kernel tests with
# -macros <herd-cats>/linux-kernel.def, as herd's linux-kernel.cfg). <herd-cats> is
# ../shared/reference/herd-cats (herd 7.58+1's library). Run from the repository root
# with herd7 on PATH.
set -e
CATS=${HERD_CATS:-../shared/reference/herd-cats}
OUT=tests/axiomatic/data/stock-cats
run() {  # model, output, files...
    m=$1; out=$2; shift 2
    : > "$OUT/$out"
    for f in "$@"; do
        echo "#file $f" >> "$OUT/$out"
        case $f in
            litmus/linux/*) herd7 -set-libdir "$CATS" -macros "$CATS/linux-kernel.def" -model "$CATS/$m" "$f" >> "$OUT/$out" ;;
            *) herd7 -set-libdir "$CATS" -model "$CATS/$m" "$f" >> "$OUT/$out" ;;
        esac
    done
}
# deps-instances.cat (no checks: every candidate is an execution) over the classic shapes
# and the first 12 tests of each bundled set but RISC-V (whose AMOs are two events in
# mmdsl and one in herd: a documented difference of every model without herd's RISC-V sets)
first() { find "$1" -name '*.litmus' | sort | head -12; }
run deps-instances.cat deps-instances.herd.txt $(ls litmus/classic/*.litmus litmus/classic/lisa/*.litmus) \
    $(first litmus/aarch64/tests) $(first litmus/ppc/tests) $(first litmus/arm/tests) \
    $(first litmus/c11/tests) $(first litmus/linux/tests) $(first litmus/x86/tests)
# stock-cat-loads.csv (herd7 on the first test of each bundled set, per stock model, with
# <herd-cats> as its library and with its own): from the repository root,
#   python bench/count_stock_cats.py ../shared/reference/herd-cats --herd herd7 \
#       --csv tests/axiomatic/data/stock-cats/stock-cat-loads.csv
# lock.cat alone (no linux-kernel.bell; herd7 runs it on the C sets): every Linux-kernel
# test (with linux-kernel.def's macros) and every C11 test
run lock.cat lock-linux.herd.txt litmus/linux/tests/*.litmus
run lock.cat lock-c11.herd.txt $(find litmus/c11/tests -name '*.litmus' | sort)
# asl-pseudo-arch.cat (acyclic iico_data | iico_ctrl | rf-reg | rf; herd7 runs it on every
# set): the classic shapes and the first 12 tests of each bundled set, the deps and
# exclusives folders of AArch64, the LSE atomics
run asl-pseudo-arch.cat asl-pseudo-arch.herd.txt $(ls litmus/classic/*.litmus litmus/classic/lisa/*.litmus) \
    $(first litmus/aarch64/tests) $(first litmus/ppc/tests) $(first litmus/arm/tests) $(first litmus/riscv/tests) \
    $(first litmus/c11/tests) $(first litmus/linux/tests) $(first litmus/x86/tests) \
    $(ls litmus/aarch64/tests/deps-and-fences/*.litmus) $(find litmus/aarch64-lse -name '*.litmus' | sort | head -12)
# herd.cat (pretty.cat's checks, with fence sets of Power and Arm): herd7 7.58 stops with a
# type error at filters.cat line 7 once an execution reaches pretty.cat's checks (WW of
# aarch64fences.cat's set dmb.st); where no candidate passes its
# uniproc check first, herd7 prints Never 0 0 (120 of the 5,051 RISC-V tests, AMO_X0 among them; a
# type error on the others); one of each
(f=litmus/riscv/tests/AMO_X0_2_THREAD/2+2W+po+poarar+NEW.litmus; echo "#file $f"; herd7 -set-libdir "$CATS" -model "$CATS/herd.cat" $f) > "$OUT/herd-cat.herd.txt"
(f=litmus/riscv/tests/ATOMICS/CO/R+fence.rw.rwspx+fence.rw.rwsxp.litmus; echo "#file $f"; herd7 -set-libdir "$CATS" -model "$CATS/herd.cat" $f 2>&1 | sed "s|$CATS/||") >> "$OUT/herd-cat.herd.txt" || true
