#!/usr/bin/env bash
# Holds a game's content rulebook (content/<game>/rulebook.toml) to the baselines its
# hand-written module recorded (record.sh): the same `grail sim` commands are run on the
# bundled pack (or, while the pack still names its module, on a copy naming the rulebook), and
# every statistic each report recorded must be the same (reports have since gained fields the
# recorded ones lack). A report that differs names the player counts that do. Run from
# anywhere with a release build and python3 (GRAIL=path names another binary):
#
#   tests/baselines/rulebook/compare.sh artus 2-4 advanced
#   tests/baselines/rulebook/compare.sh king-arthur 2-5 seals
set -euo pipefail
game=${1:?usage: compare.sh GAME PLAYERS [VARIANT...]}
players=${2:?usage: compare.sh GAME PLAYERS [VARIANT...]}
shift 2
cd "$(dirname "$0")/../../.."
grail=${GRAIL:-target/release/grail}
out=tests/baselines/rulebook
games=2000
# A pack that still names its module is played from a copy naming the rulebook; one already
# played by the rulebook is run as bundled (its reports then name the game as recorded).
if grep -q '^rules = "rulebook"' "content/$game/pack.toml"; then
  run=(--content content sim "$game")
else
  pack=$(mktemp -d)
  trap 'rm -rf "$pack"' EXIT
  cp -r "content/$game/." "$pack"
  sed -i "s/^rules = \"$game\"/rules = \"rulebook\"/" "$pack/pack.toml"
  run=(sim "$pack")
fi
# Exits 0 when every value of the recorded report (argument) is in the new one (stdin); else
# prints the player counts whose results differ.
same='
import json, sys
def within(old, new):
    if isinstance(old, dict):
        return isinstance(new, dict) and all(k in new and within(v, new[k]) for k, v in old.items())
    if isinstance(old, list):
        return isinstance(new, list) and len(old) == len(new) and all(map(within, old, new))
    return old == new
old, new = json.load(open(sys.argv[1])), json.load(sys.stdin)
if within(old, new):
    sys.exit(0)
counts = [o["players"] for o, n in zip(old["results"], new["results"]) if not within(o, n)]
print("  players differing:", counts or "(outside the results)")
sys.exit(1)
'
status=0
for agents in random greedy greedy,random; do
  tag=${agents/,/-}
  for variant in "" "$@"; do
    name=$game${variant:+-$variant}-$tag
    if "$grail" "${run[@]}" ${variant:+--variant $variant} --players "$players" --games $games \
      --seed 1 --agents "$agents" --format json | python3 -c "$same" "$out/$name.json"; then
      echo "same: $name"
    else
      echo "DIFFERENT: $name"
      status=1
    fi
  done
done
exit $status
