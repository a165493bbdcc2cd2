#!/bin/sh
# Regenerate this folder (see README.md): diy7/herd7 7.58 on PATH, run from this folder.
set -eu
rm -rf tests a b && mkdir -p tests a b
SAFE2='Rfe,Fre,Coe,PodWW,PodWR,PodRW,PodRR,DMB.SYdWW,DMB.STdWW,DMB.LDdRR,DMB.SYdRW,DMB.LDdRW'
SAFE3='Rfe,Fre,Coe,PodWW,PodRW,PodRR,DMB.STdWW,DMB.SYdWR,DMB.LDdRR'
diy7 -arch AArch64 -ua 0 -num false -size 5 -nprocs 2 -relax LxSx -safe "$SAFE2" -o a
diy7 -arch AArch64 -ua 0 -num false -size 6 -nprocs 3 -relax LxSx -safe "$SAFE3" -o b
cp a/*.litmus tests/ && cp -n b/*.litmus tests/ && rm -rf a b
# herd's own library (7.58): aarch64.cat with its includes, one test per run
for f in tests/*.litmus; do
  echo "#file tests/axiomatic/data/aarch64-exclusives/$f"
  herd7 -model aarch64.cat "$f"
done > aarch64.herd.txt
