"""``manage.py replay`` on the sample Coinche match file (docs/examples/coinche-match.json): a whole
match to 1,000 made of docs/games/coinche.md's worked examples, its sheet checked against the totals
worked by hand below (RULES.md §6, the federation's default; the engine is never asked)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "docs" / "examples" / "coinche-match.json"

# Deal by deal, Les Carreaux (team 0: Camille and Hugo, seats 0 and 2) and Les Piques (team 1: Léa
# and Julien, seats 1 and 3); Camille deals first and the deal goes round, thrown-in deals too.
HAND_WORKED = [
    # 1. Example 1: Carreaux bid 100 ♥, 92 + the last trick 10 = 102, their belote 20: 122 ≥ 100 and
    #    more than 60: made, 122 + 100 = 222 → 220 (raw 222); Piques 60.
    ("made", [220, 60], [220, 60], 0, [222, 60]),
    # 2. Example 2: Piques bid 120 ♠, 72 + 10 = 82 < 120: failed, Carreaux 160 + 120 = 280.
    ("failed", [280, 0], [500, 60], 1, None),
    # 3. All passed: nothing scored, the deal passes on.
    ("thrown_in", [0, 0], [500, 60], 2, None),
    # 4. Example 4: Piques bid 90 ♦, coinché; 100 + 10 = 110 ≥ 90 and more than 52 + 20 (the
    #    Carreaux' belote): made, Piques (160 + 90) × 2 = 500, Carreaux their belote 20.
    ("made", [20, 500], [520, 560], 3, None),
    # 5. Example 6: Piques bid 80 ♠ with a tierce, 80 + 10 = 90; Carreaux 72 with a cinquante: only
    #    the cinquante counts, 90 is not more than 72 + 50 = 122: failed, Carreaux 160 + 80 + 50 = 290.
    ("failed", [290, 0], [810, 560], 0, None),
    # 6. Example 3: Carreaux bid 80 ♣, 71 + 10 = 81 against 81: the litige is failed, Piques 160 + 80.
    ("failed", [0, 240], [810, 800], 1, None),
    # 7. Example 7: Piques bid 110 ♦, 95 + 10 + their belote 20 = 125 ≥ 110 and more than 57: made,
    #    125 + 110 = 235 → 240 (5 up); Carreaux 57 → 60. Piques reach 1,040 ≥ 1,000 and win.
    ("made", [60, 240], [870, 1040], 2, [57, 235]),
]


def test_replay_of_the_sample_coinche_match_gives_the_hand_worked_sheet():
    done = subprocess.run(
        [sys.executable, "manage.py", "replay", str(SAMPLE)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    sheet = json.loads(done.stdout)
    rows = [(d["result"], d["scores"], d["totals"], d["dealer"], d.get("raw")) for d in sheet["deals"]]
    assert rows == [tuple(row) for row in HAND_WORKED]
    assert (sheet["ruleset"], sheet["totals"], sheet["status"], sheet["winner"], sheet["held"]) == (
        "coinche", [870, 1040], "finished", 1, 0
    )  # fmt: skip
    assert sheet["next_dealer"] == 3
    assert sheet["options"]["target"] == 1000 and sheet["options"]["litige"] == "failed"


def test_the_sample_file_uses_the_worked_examples_bids_and_words():
    """The file a club would copy: Coinche, both teams named, bids as numbers, a coinché deal."""
    document = json.loads(SAMPLE.read_text(encoding="utf-8"))
    assert document["ruleset"] == "coinche" and len(document["teams"]) == 2
    played = [deal for deal in document["deals"] if not deal.get("thrown_in")]
    assert [deal["contract"]["bid"] for deal in played] == [100, 120, 90, 80, 80, 110]
    assert [deal["contract"]["multiplier"] for deal in played].count(2) == 1
