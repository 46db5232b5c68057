"""The last look at a round before it is saved: is it a valid pairing?"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from .types import Pair, PairingError, distinct


def check_pairing(
    entries: Collection[int],
    pairs: Sequence[Pair],
    played: Collection[frozenset[int]] = (),
    *,
    allow_rematch: bool = True,
    byes: Collection[int] = (),
    max_byes: int | None = 1,
) -> None:
    """Raise ``PairingError`` unless ``pairs`` is a valid round for ``entries``.

    Valid means: every entry is at exactly one table, nobody else is; no team
    is paired with itself; at most ``max_byes`` byes (one by default, which
    with every team seated once means a bye only when the number is odd;
    ``None`` for no limit, as in a knockout's first round with byes); no pair
    was ``played`` before unless ``allow_rematch``; and the bye does not go to
    a team that already had one (``byes``) while a team of this round has not
    had one.
    """
    expected = list(entries)
    distinct(expected)
    expected_set = set(expected)
    met = set() if allow_rematch else set(played)
    seated: set[int] = set()
    for table, pair in enumerate(pairs, start=1):
        if pair.a is None:
            raise PairingError(f"Table {table} has no first team.")
        if pair.a == pair.b:
            raise PairingError(f"Entry {pair.a} is paired with itself at table {table}.")
        for entry in pair.entries:
            if entry not in expected_set:
                raise PairingError(f"Entry {entry} is at table {table} but does not play this round.")
            if entry in seated:
                raise PairingError(f"Entry {entry} is at two tables.")
            seated.add(entry)
        if pair.b is not None and frozenset((pair.a, pair.b)) in met:
            raise PairingError(f"Entries {pair.a} and {pair.b} have already played each other.")
    missing = [entry for entry in expected if entry not in seated]
    if missing:
        raise PairingError(f"Entry {missing[0]} has no table in this round.")
    bye_pairs = [pair for pair in pairs if pair.b is None]
    if max_byes is not None and len(bye_pairs) > max_byes:
        teams = ", ".join(str(pair.a) for pair in bye_pairs)
        raise PairingError(f"{len(bye_pairs)} teams have a bye ({teams}); at most {max_byes} may have one.")
    had_bye = set(byes)
    without_bye = [entry for entry in expected if entry not in had_bye]
    for pair in bye_pairs:
        if pair.a in had_bye and without_bye:
            raise PairingError(
                f"Entry {pair.a} already had a bye; entry {without_bye[0]} has not had one and should get it."
            )


def check_individual(
    players: Collection[int],
    tables: Sequence[tuple[int, int, int, int]],
    sitting_out: Collection[int],
    *,
    sat_out: Mapping[int, int] | None = None,
) -> None:
    """Raise ``PairingError`` unless ``tables`` and ``sitting_out`` are a valid individual round.

    A table is four players ``(a, b, c, d)``: ``a`` and ``b`` partners against ``c`` and ``d``.
    Valid means: every player at exactly one table or sitting out, nobody else; as few sitting out
    as the number allows (``len(players) % 4``); and, given ``sat_out`` (how often each player sat
    out before), nobody sits out again while a player seated this round has sat out fewer times.
    """
    expected = list(players)
    distinct(expected, "player")
    expected_set = set(expected)
    seen: set[int] = set()

    def place(entry: int, where: str) -> None:
        if entry not in expected_set:
            raise PairingError(f"Entry {entry} is {where} but does not play this round.")
        if entry in seen:
            raise PairingError(f"Entry {entry} is seated twice.")
        seen.add(entry)

    for number, table in enumerate(tables, start=1):
        if len(table) != 4 or any(entry is None for entry in table):
            raise PairingError(f"Table {number} does not seat four players.")
        for entry in table:
            place(entry, f"at table {number}")
    for entry in sitting_out:
        place(entry, "sitting out")
    missing = [entry for entry in expected if entry not in seen]
    if missing:
        raise PairingError(f"Entry {missing[0]} has no seat in this round.")
    if len(sitting_out) != len(expected) % 4:
        raise PairingError(
            f"{len(sitting_out)} players sit out; with {len(expected)} players, {len(expected) % 4} should."
        )
    if sat_out is not None and sitting_out:
        seated = expected_set - set(sitting_out)
        fewest = min((sat_out.get(entry, 0) for entry in seated), default=0)
        for entry in sitting_out:
            if sat_out.get(entry, 0) > fewest:
                raise PairingError(
                    f"Entry {entry} sits out again while a seated player has sat out fewer times."
                )
