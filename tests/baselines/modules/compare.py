#!/usr/bin/env python3
"""Holds a port's `grail sim --format json` report to a module's recorded one (record.sh).

    compare.py RECORDED.json NEW.json

Prints `same` when every recorded statistic is equal. Otherwise, where the listing order or
the generator's use differs by design, each statistic must lie within 3.89 standard errors of
the recorded one (99% for about a hundred statistics at once): per seat the win rate, per
ending its share of the games, the mean turns, and per tally its count per game (its
variance taken as a count's, the mean: a per-game count of 0 or 1 varies less, so this errs
towards passing only as far as a Poisson bound does). Exits 1 naming what lies outside.
"""
import json
import math
import sys

LIMIT = 3.89


def within(name, old, new, se, out):
    if old == new:
        return
    z = abs(new - old) / se if se > 0 else math.inf
    if z > LIMIT:
        out.append(f"{name}: {old} recorded, {new} now ({z:.1f} standard errors)")


def share(name, k_old, n_old, k_new, n_new, out):
    p_old, p_new = k_old / n_old, k_new / n_new
    se = math.sqrt(p_old * (1 - p_old) / n_old + p_new * (1 - p_new) / n_new)
    within(name, p_old, p_new, se, out)


def compare(old, new):
    out, exact = [], True
    by_players = {r["players"]: r for r in new["results"]}
    for r in old["results"]:
        p = r["players"]
        n = by_players.get(p)
        if n is None:
            out.append(f"{p} players: not in the new report")
            continue
        exact &= all(n.get(k) == v for k, v in r.items())
        g_old, g_new = r["games"], n["games"]
        for s_old, s_new in zip(r["seats"], n["seats"]):
            share(f"{p}p {s_old['seat']} win rate", s_old["wins"], g_old, s_new["wins"], g_new, out)
        for reason in set(r["end_reasons"]) | set(n["end_reasons"]):
            k_old, k_new = r["end_reasons"].get(reason, 0), n["end_reasons"].get(reason, 0)
            share(f"{p}p ending {reason}", k_old, g_old, k_new, g_new, out)
        se = math.sqrt(r["sd_turns"] ** 2 / g_old + n["sd_turns"] ** 2 / g_new)
        within(f"{p}p mean turns", r["mean_turns"], n["mean_turns"], se, out)
        tallies = {(t["kind"], t["item"]): t for t in n.get("tallies", [])}
        for t in r.get("tallies", []):
            new_t = tallies.get((t["kind"], t["item"]), {"per_game": 0.0})
            se = math.sqrt(t["per_game"] / g_old + new_t["per_game"] / g_new)
            within(f"{p}p tally {t['kind']} {t['item']}", t["per_game"], new_t["per_game"], se, out)
    return exact, out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    old, new = (json.load(open(path)) for path in sys.argv[1:])
    exact, out = compare(old, new)
    if exact:
        print("same")
    elif not out:
        print("within 3.89 standard errors")
    else:
        print("\n".join(out))
        sys.exit(1)


if __name__ == "__main__":
    main()
