#!/usr/bin/env bash
# Holds King Arthur's content rulebook (content/king-arthur/rulebook.toml) to the baselines the
# hand-written module recorded (record.sh): the bundled pack is copied into a temporary folder
# with `rules = "rulebook"`, the same `grail sim` commands are run, and each report must be
# byte for byte the recorded one. Run from anywhere with a release build.
set -euo pipefail
cd "$(dirname "$0")/../../.."
grail=${GRAIL:-target/release/grail}
out=tests/baselines/rulebook
games=2000
pack=$(mktemp -d)
trap 'rm -rf "$pack"' EXIT
cp -r content/king-arthur/. "$pack"
sed -i 's/^rules = "king-arthur"/rules = "rulebook"/' "$pack/pack.toml"
status=0
for agents in random greedy greedy,random; do
  tag=${agents/,/-}
  for variant in "" seals; do
    name=king-arthur${variant:+-$variant}-$tag
    if "$grail" sim "$pack" ${variant:+--variant $variant} --players 2-5 --games $games \
      --seed 1 --agents "$agents" --format json | cmp -s - "$out/$name.json"; then
      echo "same: $name"
    else
      echo "DIFFERENT: $name"
      status=1
    fi
  done
done
exit $status
