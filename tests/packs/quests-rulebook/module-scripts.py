#!/usr/bin/env python3
"""Run the module's scripts (tests/scripts/quests/*.ron) against this draft.

Usage: GRAIL=<grail binary> python3 module-scripts.py OUT_DIR [NAME ...]

Each module script is copied into OUT_DIR with `game: "quests-rulebook"` and its set-up
rewritten for this draft; its steps (Play, Expect, Illegal, End) are never changed. Then each
copy is replayed against the draft (`grail --content tests/packs replay FILE`) and one line
is printed per script: PASS, or the first error.

The set-up. The module deals stacked hands ("P1": [...]) first, then the rest of each hand
at random, one card at a time round the table, then stacks the tops of the decks
("adventure", "story"); its later draws come from its own shuffle. The draft deals 12 cards
one at a time P1, P2, ... from `deck`. So that the draft deals and draws the very cards the
module does (a hand the script leaves to the shuffle, a sponsor's draw past the stacked top),
the set-up is read from the module's own game: the script is replayed against the bundled
`quests` game, with a question `hand P<n>` asked after the set-up and around every step in
which someone draws; the cards each player gains in a step are stacked in the order the
module's log says the draws came (its order is the draft's: the drawer's, the sponsor's left,
...). The story deck is stacked with the story cards the log says were turned up. Both stop
at the module's first reshuffle of a deck (the draft shuffles its discards with its own
generator: no script can state that order). A script the module cannot replay keeps the
plain conversion (the stacked hands interleaved into `deck`, then "adventure").
"""
import glob, os, re, subprocess, sys, tempfile
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
CONTENT = os.path.dirname(HERE)  # tests/packs
# The grail to run: $GRAIL, else `grail` on the PATH.
GRAIL = os.environ.get('GRAIL', 'grail')
MODULE = os.path.normpath(os.path.join(HERE, '..', '..', 'scripts', 'quests'))
STORY = os.path.normpath(os.path.join(HERE, '..', '..', '..', 'content', 'quests', 'story.toml'))
HAND = 12
STEP = re.compile(r'^\s*(Play|Expect|Illegal|Move|End)\(')


def run(args):
    r = subprocess.run([GRAIL] + args, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def split_script(s):
    """The text before the steps, the step lines, the text after them."""
    start = s.index('steps: [')
    body_start = s.index('\n', start) + 1
    end = s.rindex('],')
    lines = s[body_start:end].split('\n')
    steps = [l.strip() for l in lines if STEP.match(l)]
    return s[:body_start], steps


def parse_stack(s):
    m = re.search(r'stack:\s*\{(.*?)\n\s*\},', s, re.S)
    if not m:
        return None, {}
    entries = {}
    for k, v in re.findall(r'"([^"]+)":\s*\[([^\]]*)\]', m.group(1)):
        entries[k] = re.findall(r'"([^"]+)"', v)
    return m, entries


def story_ids():
    text = open(STORY).read()
    return {n: i for i, n in re.findall(r'^id = "([^"]+)"\n(?:[^\n]*\n)*?name = "([^"]+)"', text, re.M)}


def module_log(path):
    """Events of the module's replay, by step (0: the set-up), and each step's mover and move."""
    code, out, err = run(['replay', path])
    if code != 0:
        return None
    events, moves, at = {0: []}, {}, 0
    for line in out.split('\n'):
        m = re.match(r'^\s*(\d+)\. (.*)$', line)
        if m and not line.startswith('        '):
            at = int(m.group(1))
            events[at] = []
            mv = re.match(r'^(P\d) (.*?)\s+\[[0-9a-f]{8}\]$', m.group(2))
            if mv:
                moves[at] = (int(mv.group(1)[1:]), mv.group(2))
        elif line.startswith('        '):
            events.setdefault(at, []).append(line.strip())
    return events, moves


def hand_after(head, steps, k, seat, cache):
    """P<seat>'s hand in the module's game after step k (0: after the set-up)."""
    key = (k, seat)
    if key not in cache:
        text = head + ''.join('        %s\n' % st for st in steps[:k])
        text += '        Expect("hand P%d", "?"),\n    ],\n)\n' % seat
        tmp = os.path.join(tempfile.gettempdir(), 'grail-module-trace-%d.ron' % os.getpid())
        open(tmp, 'w').write(text)
        code, out, err = run(['replay', tmp])
        m = re.search(r"'hand P%d' is \"([^\"]*)\"" % seat, err + out)
        if not m:
            raise RuntimeError('no hand for P%d after step %d: %s' % (seat, k, (err + out)[-300:]))
        cards = m.group(1).split()
        cache[key] = Counter([] if cards == ['-'] else cards)
    return cache[key]


def removed(move):
    """The card a move takes from its player's hand."""
    words = move.split()
    if words[0] in ('add', 'discard', 'play') and len(words) == 2:
        return words[1]
    if words[0] == 'use' and len(words) == 4:
        return words[1]
    return None


def traced_setup(path, players):
    got = module_log(path)
    if got is None:
        return None
    events, moves = got
    head, steps = split_script(open(path).read())
    names = story_ids()
    cache = {}
    story, deck, dealt = [], [], None
    total = None
    story_done = deck_done = False
    for k in sorted(events):
        draws = []
        for e in events[k]:
            if e.startswith('the adventure discards'):
                draws.append(('reshuffle', 0))
                continue
            if e.startswith('the story discards'):
                story_done = True
                continue
            m = re.match(r'^P(\d) (?:\(the sponsor\) )?draws (\d+) cards?$', e)
            if m:
                draws.append((int(m.group(1)), int(m.group(2))))
                continue
            m = re.match(r'^P\d draws (.+?)(?:: ".*")?$', e)
            if m and m.group(1) in names and not story_done:
                story.append(names[m.group(1)])
        if k == 0:
            gained = {p: hand_after(head, steps, 0, p, cache) for p in range(1, players + 1)}
            hands = {p: sorted(gained[p].elements()) for p in gained}
            dealt = [hands[p][:HAND] for p in range(1, players + 1)]
            for p in gained:
                gained[p] = Counter(hands[p][HAND:])
            for j in range(HAND):
                for p in range(players):
                    deck.append(dealt[p][j])
        elif draws and not deck_done:
            gained = {}
            for p in {d[0] for d in draws if d[0] != 'reshuffle'}:
                before = hand_after(head, steps, k - 1, p, cache).copy()
                mv = moves.get(k)
                if mv and mv[0] == p and removed(mv[1]):
                    before[removed(mv[1])] -= 1
                after = hand_after(head, steps, k, p, cache)
                gained[p] = after - before
        else:
            continue
        for who, n in draws:
            if deck_done:
                break
            if who == 'reshuffle':
                # The module's deck ran out: what it still held went first (the cards no draw
                # so far took); the draft's own shuffle of its discards follows.
                rest = Counter(all_cards()) - Counter(deck)
                deck.extend(sorted(rest.elements()))
                deck_done = True
                break
            take = sorted(gained[who].elements())[:n]
            gained[who] -= Counter(take)
            deck.extend(take)
    return story, deck


_ALL = None


def all_cards():
    global _ALL
    if _ALL is None:
        text = open(os.path.join(HERE, 'adventure.toml')).read()
        _ALL = []
        for blk in text.split('[[sets.adventure.cards]]')[1:]:
            cid = re.search(r'^id = "([^"]+)"', blk, re.M).group(1)
            m = re.search(r'^copies = (\d+)', blk, re.M)
            _ALL += [cid] * (int(m.group(1)) if m else 1)
    return _ALL


def plain_setup(entries, players):
    hands = [entries.get('P%d' % (i + 1)) for i in range(players)]
    deck = []
    if all(h is not None for h in hands):
        for j in range(HAND):
            for h in hands:
                deck.append(h[j])
    return entries.get('story', []), deck + entries.get('adventure', [])


def convert(path):
    s = open(path).read()
    s = s.replace('game: "quests"', 'game: "quests-rulebook"')
    players = int(re.search(r'players:\s*(\d+)', s).group(1))
    m, entries = parse_stack(s)
    how = 'traced'
    try:
        setup = traced_setup(path, players)
    except RuntimeError as e:
        setup = None
    if setup is None:
        how = 'plain'
        setup = plain_setup(entries, players)
    story, deck = setup
    text = 'stack: {\n'
    if story:
        text += '        "story": [%s],\n' % ', '.join('"%s"' % c for c in story)
    if deck:
        text += '        "deck": [%s],\n' % ', '.join('"%s"' % c for c in deck)
    text += '    },'
    if m:
        s = s[:m.start()] + text + s[m.end():]
    else:
        at = re.search(r'\n(\s*)steps: \[', s)
        s = s[:at.start()] + '\n    ' + text + s[at.start():]
    return s, how


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    names = sys.argv[2:]
    files = sorted(glob.glob(os.path.join(MODULE, '*.ron')))
    if names:
        files = [f for f in files if os.path.basename(f)[:-4] in names or os.path.basename(f) in names]
    passed = 0
    for f in files:
        target = os.path.join(out, os.path.basename(f))
        text, how = convert(f)
        open(target, 'w').write(text)
        code, so, se = run(['--content', CONTENT, 'replay', target])
        name = os.path.basename(f)
        note = '' if how == 'traced' else ' (plain set-up)'
        if code == 0:
            passed += 1
            print('%-30s PASS%s' % (name, note))
        else:
            lines = [l for l in (se + so).splitlines() if l.startswith('error')]
            print('%-30s %s%s' % (name, lines[0] if lines else (se or so).strip()[-300:], note))
    print('%d of %d pass' % (passed, len(files)))


if __name__ == '__main__':
    main()
