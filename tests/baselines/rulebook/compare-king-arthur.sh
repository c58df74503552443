#!/usr/bin/env bash
# Holds King Arthur's content rulebook (content/king-arthur/rulebook.toml) to the baselines the
# hand-written module recorded (record.sh) before it was deleted: the same `grail sim`
# commands are run on the bundled pack (read from content/), and every statistic each report
# recorded must be the same (reports have since gained fields, such as the content hash and
# the exact totals, which the recorded ones lack). Run from anywhere with a release build and
# python3. tests/tests/king_arthur_baselines.rs checks two of the configurations cheaply.
set -euo pipefail
cd "$(dirname "$0")/../../.."
grail=${GRAIL:-target/release/grail}
out=tests/baselines/rulebook
games=2000
# Exits 0 when every value of the recorded report (argument) is in the new one (stdin).
same='
import json, sys
def within(old, new):
    if isinstance(old, dict):
        return isinstance(new, dict) and all(k in new and within(v, new[k]) for k, v in old.items())
    if isinstance(old, list):
        return isinstance(new, list) and len(old) == len(new) and all(map(within, old, new))
    return old == new
sys.exit(0 if within(json.load(open(sys.argv[1])), json.load(sys.stdin)) else 1)
'
status=0
for agents in random greedy greedy,random; do
  tag=${agents/,/-}
  for variant in "" seals; do
    name=king-arthur${variant:+-$variant}-$tag
    if "$grail" --content content sim king-arthur ${variant:+--variant $variant} --players 2-5 --games $games \
      --seed 1 --agents "$agents" --format json | python3 -c "$same" "$out/$name.json"; then
      echo "same: $name"
    else
      echo "DIFFERENT: $name"
      status=1
    fi
  done
done
exit $status
