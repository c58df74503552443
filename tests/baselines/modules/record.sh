#!/usr/bin/env bash
# Recorded `grail sim` statistics of the hand-written Quests and Camelot Virtues rulebooks
# (rules/src/quests, rules/src/virtues), taken before their ports onto the content rulebook
# begin (issues 30 and 31), so each port is held to the same games: the same seeds give the
# same statistics, or (where the listing order or the generator's use differs by design)
# statistics within 3.89 standard errors over 20,000 random games per player count.
#
# Run from anywhere with the release build of the commit to record (GRAIL names the binary;
# the files here were recorded from commit 902de87, the commit the issues name):
#
#   GRAIL=/path/to/902de87/grail tests/baselines/modules/record.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
grail=${GRAIL:-target/release/grail}
out=tests/baselines/modules
record() { # game players variant agents games
  local game=$1 players=$2 variant=$3 agents=$4 games=$5
  local name=$game${variant:+-$variant}-${agents/,/-}
  "$grail" sim "$game" ${variant:+--variant $variant} --players "$players" --games "$games" \
    --seed 1 --agents "$agents" --format json > "$out/$name.json"
}
for variant in "" quick; do
  record quests 2-4 "$variant" random 20000
  for agents in greedy greedy,random random,greedy; do
    record quests 2-4 "$variant" "$agents" 2000
  done
done
for variant in "" prizes-from-the-deck; do
  record virtues 2-6 "$variant" random 20000
  for agents in greedy greedy,random random,greedy; do
    record virtues 2-6 "$variant" "$agents" 2000
  done
done
