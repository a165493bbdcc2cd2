#!/bin/sh
# Regenerates herd7's outputs of this folder (see ORIGIN.md). From the repository root, with
# herd7 on PATH (or HERD7=...): sh tests/lang/data/with-from/regenerate.sh
set -e
CATS=${HERD_CATS:-../shared/reference/herd-cats}
HERD7=${HERD7:-herd7}
DIR=tests/lang/data/with-from
for m in among none cross map; do
    out=$DIR/$m.herd.txt
    : > "$out"
    for f in litmus/classic/*.litmus litmus/classic/lisa/*.litmus; do
        echo "#file $f" >> "$out"
        "$HERD7" -set-libdir "$CATS" -model "$DIR/$m.cat" "$f" >> "$out"
    done
done
