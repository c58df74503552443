#!/usr/bin/env bash
# Records `grail sim` statistics of the hand-written King Arthur and Artus rulebooks, so the
# content-defined rulebook that replaces them (issue "Rulebooks as content") can be held to
# the same games: same seeds, same statistics. Run from the repository root with a release
# build; the files are committed and must not change while the hand-written modules exist.
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
