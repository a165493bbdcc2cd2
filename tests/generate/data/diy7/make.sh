#!/bin/sh
# Regenerates the diy7 outputs beside this script: each run's cycles and names
# (`-cycleonly true`), NAME.txt with diy7's default `-num true` names (family and number
# in diy's order), NAME.names with `-num false` names (7.58's descriptors, 001 numbers).
# Made with diy7 7.58 (herdtools7, CeCILL-B); diy7 writes files in its working
# directory, so it runs in a temporary one.
set -e
DIY7=${DIY7:-/work/tools/bin/diy7}
OUT=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"
run() {
  name=$1; shift
  { echo "# $("$DIY7" -version): diy7 -cycleonly true $*"
    "$DIY7" -cycleonly true "$@" 2>/dev/null; } > "$OUT/$name.txt"
  { echo "# $("$DIY7" -version): diy7 -cycleonly true -num false $*"
    "$DIY7" -cycleonly true -num false "$@" 2>/dev/null; } > "$OUT/$name.names"
}
S='PodR*,Pod*W,Fre,Rfe,Wse,MFenced**'
A='Pos**,Fri,Coi,PodWW,PodRR,PodRW,Fre,Rfe,Coe,MFenced**'
run ppo-relax2 -arch X86_64 -mode ppo -safe "$S" -relax PodWR,Rfi -nprocs 2 -size 5
run sc-relax3 -arch X86_64 -mode sc -safe "$S" -relax PodWR,Rfi -nprocs 3 -size 7
run sc-internal -arch X86_64 -mode sc -relax PodWR,Rfi -safe "$A" -nprocs 2 -size 6
run ppo-internal -arch X86_64 -mode ppo -relax PodWR,PosRR -safe "Rfi,$A" -nprocs 2 -size 5
run critical-internal -arch X86_64 -mode critical -relax PodWR,Rfi -safe "$A" -nprocs 3 -size 6
run critical-basic3 -arch X86_64 -mode critical -safe 'Pod**,Fre,Rfe,Wse,MFenced**' -nprocs 3 -eprocs -size 6
run default-internal -arch X86_64 -mode default -relax PodWR,Rfi -safe "$A" -nprocs 3 -size 6
run default-plain -arch X86_64 -relax PodWR -safe 'Rfe,Fre,Coe,Pod**,Rfi' -nprocs 3 -size 6
run mix-critical -arch X86_64 -mode critical -mix true -relax PodWW,PodRR -safe Rfe,Fre,Coe,Rfi -nprocs 3 -size 6
run sc-riscv-deps -arch RISCV -mode sc -relax DpAddrdR,DpCtrldW -safe 'PodWW,PodRR,PodRW,Rfe,Fre,Rfi,DpDatadW,Fence.rw.rwdWW' -nprocs 2 -size 6
run ppo-riscv-deps -arch RISCV -mode ppo -relax DpAddrdR,DpCtrldW -safe 'PodWW,PodRR,Rfe,Fre,Rfi,DpDatadW' -nprocs 2 -size 5
F='Fence.rw.rwdWW,Fence.r.rwdRR,Fence.w.wdWW,Fence.tsodWW,Fence.rw.rdRR'
run sc-riscv-fences -arch RISCV -mode sc -relax PodWR -safe "$F,Rfe,Fre,Coe,PodWW,PodRR" -nprocs 2 -size 5
run ppo-riscv-fences -arch RISCV -mode ppo -relax PodWR -safe "$F,Rfe,Fre,Coe" -nprocs 2 -size 5
