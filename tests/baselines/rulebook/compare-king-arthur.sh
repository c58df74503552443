#!/usr/bin/env bash
# Holds King Arthur's content rulebook (content/king-arthur/rulebook.toml) to the baselines the
# hand-written module recorded (record.sh) before it was deleted: compare.sh on the bundled
# pack, both variants, 2 to 5 players. Run from anywhere with a release build and python3.
# tests/tests/king_arthur_baselines.rs checks a few of the configurations cheaply.
exec "$(dirname "$0")/compare.sh" king-arthur 2-5 seals
