#!/bin/sh
# Seeds the `rulebook` fuzz target: the bundled rulebooks (first byte 0: King Arthur's, 1:
# Artus') and every docs/examples and tests/packs root file as a pack of its own (first byte 2).
# Run from the repository root: `sh fuzz/seed_rulebook.sh && cd fuzz && cargo fuzz run rulebook`.
set -eu
out=fuzz/corpus/rulebook
mkdir -p "$out"
seed() { { printf "\\$(printf '%03o' "$1")"; cat "$2"; } > "$out/$3"; }
seed 0 content/king-arthur/rulebook.toml king-arthur
seed 1 content/artus/rulebook.toml artus
for pack in docs/examples/*/pack.toml tests/packs/*/pack.toml; do
    name=$(basename "$(dirname "$pack")")
    seed 2 "$pack" "$name"
done
echo "seeded $(ls "$out" | wc -l) files in $out"
