#!/usr/bin/env bash
# Recorded `grail sim` statistics of the hand-written King Arthur and Artus rulebooks, so the
# content-defined rulebook that replaced them (issue "Rulebooks as content") is held to the
# same games: same seeds, same statistics. Both modules are deleted, so this now records what
# the descriptions play; the committed files are the modules' and must not change (compare.sh
# checks them). Kept to show how they were recorded.
set -euo pipefail
cd "$(dirname "$0")/../../.."
grail=${GRAIL:-target/release/grail}
out=tests/baselines/rulebook
games=2000
for agents in random greedy greedy,random; do
  tag=${agents/,/-}
  for variant in "" seals; do
    name=king-arthur${variant:+-$variant}-$tag
    "$grail" sim king-arthur ${variant:+--variant $variant} --players 2-5 --games $games \
      --seed 1 --agents "$agents" --format json > "$out/$name.json"
  done
  for variant in "" advanced; do
    name=artus${variant:+-$variant}-$tag
    "$grail" sim artus ${variant:+--variant $variant} --players 2-4 --games $games \
      --seed 1 --agents "$agents" --format json > "$out/$name.json"
  done
done
