"""The rules kernel: each rule's arithmetic once, for the core, the solver and the bot.

Besides the rules themselves, the last test plants a bug in the kernel (in a copy of the
package) and checks that the core's play and the solver's answer both change: there is no
second copy of the rule to keep either of them right.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scoundrel.core import kernel
from scoundrel.core.kernel import (
    FRESH,
    MAX_HEALTH,
    NO_REACH,
    POTION_BASE,
    ROOM_SIZE,
    ROOM_TAKES,
    WEAPON_BASE,
    after_card,
    code_value,
    coop_score,
    damage,
    dealt,
    drink,
    fight,
    is_monster_code,
    is_potion_code,
    is_weapon_code,
    known_below,
    may_flee,
    may_help,
    next_leader,
    potion_bonus,
    reaches,
    room_done,
    solo_score,
    takes,
    to_resolve,
    worn,
)

PACKAGE = Path(kernel.__file__).resolve().parents[1]


def test_s2_c1_health_and_s3_s6_rooms() -> None:
    assert MAX_HEALTH == 20
    assert (ROOM_SIZE, ROOM_TAKES) == (4, 3)


def test_s8_fights() -> None:
    assert damage(13, 7, True) == 6 and fight(20, 13, 7, True) == 14
    assert damage(5, 7, True) == 0  # a weapon never heals
    assert damage(13, 7, False) == 13 and fight(5, 13, 7, False) == -8


def test_s9_c7_reach() -> None:
    assert reaches(FRESH, 15) and not reaches(NO_REACH, 2)
    assert worn(9, strict=True) == 9 and not reaches(worn(9, True), 9)
    assert worn(9, strict=False) == 10 and reaches(worn(9, False), 9)
    assert not reaches(worn(9, False), 10)


def test_s10_c6_potions() -> None:
    assert drink(12, 5, used=False, most=MAX_HEALTH) == 17
    assert drink(18, 9, used=False, most=MAX_HEALTH) == MAX_HEALTH
    assert drink(12, 5, used=True, most=MAX_HEALTH) == 12


def test_v2_heroes_heal_up_to_the_health_they_started_with() -> None:
    assert drink(10, 9, used=False, most=14) == 14 and drink(3, 9, used=False, most=14) == 12
    assert potion_bonus(14, 8, most=14) == 8 and potion_bonus(14, 8, most=MAX_HEALTH) == 0
    assert solo_score(True, 14, 8, 0, 0, False, 14) == 22


def test_v1_a_relentless_game_flees_no_room() -> None:
    assert may_flee(0, False, 10, relentless=False)
    assert not may_flee(0, False, 10, relentless=True)


def test_s4_s5_flee_and_s6_room_completion() -> None:
    assert may_flee(0, False, 10, False)
    assert not may_flee(1, False, 10, False)  # S5: a card was resolved
    assert not may_flee(0, True, 10, False)  # S5: never twice in a row
    assert not may_flee(0, False, 0, False)  # S4: the final room
    assert room_done(1, 5) and not room_done(2, 5) and not room_done(1, 0)
    assert to_resolve(4, 0, final=False) == 3 and to_resolve(3, 1, final=True) == 3


def test_s3_s4_s6_the_flow_of_a_room() -> None:
    """S3: a deal fills the room to four, or takes what the dungeon has left; S6: a room
    is done at its last card while the dungeon has cards, and the next dealt; S4, S12: the
    final room is resolved to its end and the game is won; S11: a death ends it."""
    assert dealt(0, 44) == 4 and dealt(1, 40) == 3 and dealt(1, 2) == 2 and dealt(1, 0) == 0
    assert after_card(2, 10, True) == kernel.GO_ON
    assert after_card(1, 10, True) == kernel.NEXT_ROOM
    assert after_card(1, 0, True) == kernel.GO_ON  # the final room goes on to its end
    assert after_card(0, 0, True) == kernel.WON_GAME
    assert after_card(1, 10, False) == after_card(0, 0, False) == kernel.LOST_GAME
    assert known_below(4, 10) == 4 and known_below(4, 2) == 2


def test_c3_c4_c5_who_leads_and_who_takes_the_card() -> None:
    """C3: in co-op the other hero leads the next room; solo has one hero. C4, C5: a card
    acts on the leader, the help card on the partner, once a room."""
    assert next_leader(0, True) == 1 and next_leader(1, True) == 0
    assert next_leader(0, False) == 0
    assert takes(0, 0) == 0 and takes(0, 1) == 1 and takes(1, 1) == 0 and takes(1, 0) == 1
    assert may_help(True, False) and not may_help(True, True) and not may_help(False, False)


def test_s13_and_c10_scores() -> None:
    assert solo_score(True, 20, 8, 0, 0, False, 20) == 28 == 20 + potion_bonus(20, 8, 20)
    assert solo_score(True, 19, 8, 0, 0, False, 20) == 19
    assert solo_score(False, -3, 0, 40, 10, False, 20) == -53
    assert solo_score(False, -3, 0, 40, 10, True, 20) == -40
    assert coop_score(True, 12, 20, 0, 0) == 32
    assert coop_score(False, 0, 7, 40, 10) == -50


def test_card_codes() -> None:
    assert is_monster_code(15) and not is_monster_code(WEAPON_BASE + 2)
    assert is_weapon_code(WEAPON_BASE + 10) and is_potion_code(POTION_BASE + 2)
    assert [code_value(c) for c in (14, WEAPON_BASE + 7, POTION_BASE + 9)] == [14, 7, 9]


def test_the_tables_are_the_functions() -> None:
    values = range(kernel.HIGHEST_VALUE + 1)
    for monster in values:
        assert kernel.BARE_DAMAGE[monster] == damage(monster, 0, False)
        for strict in (False, True):
            assert kernel.WORN[strict][monster] == worn(monster, strict)
        for weapon in values:
            assert kernel.WEAPON_DAMAGE[monster][weapon] == damage(monster, weapon, True)
    for most in range(1, MAX_HEALTH + 1):
        for health in range(1, most + 1):
            for potion in values:
                assert kernel.HEALED[most][health][potion] == drink(health, potion, False, most)
    for left in range(ROOM_SIZE + 1):
        assert kernel.AFTER_CARD[left] == (after_card(left, 0, True), after_card(left, 1, True))


# The same questions asked of an untouched package and of one with a planted rule bug.
PROBE = """
import json
from scoundrel.core import Card, Rules, State, random_deal
from scoundrel.solver import solve

first = [Card(c) for c in ("5H", "9C", "8S", "2D")]
deck = first + [card for card in Rules.solo().cards if card not in first]
state = State.new(Rules.solo(), deck).apply("9C/b").apply("5H")
best = [solve(State.new(Rules.solo(), random_deal(Rules.solo(), seed)), best=True).best_score
        for seed in (1,)]
print(json.dumps({"health": state.heroes[0].health, "best": best}))
"""


def probe(package_parent: Path) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(package_parent))
    result = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    )
    answer: dict[str, object] = json.loads(result.stdout)
    return answer


def test_a_rule_changed_in_the_kernel_changes_the_core_and_the_solver(tmp_path: Path) -> None:
    """S10 planted wrong (a potion heals one less) in a copy of the package: the core's
    health after a potion and the solver's best scores both change with that one edit."""
    planted = tmp_path / "planted"
    shutil.copytree(PACKAGE, planted / "scoundrel", ignore=shutil.ignore_patterns("static"))
    source = planted / "scoundrel" / "core" / "kernel.py"
    text = source.read_text(encoding="utf-8")
    rule = "    healed = health + potion\n"
    assert text.count(rule) == 1
    source.write_text(text.replace(rule, "    healed = health + potion - 1\n"), "utf-8")

    right = probe(PACKAGE.parent)
    wrong = probe(planted)
    assert right["health"] == 16  # 20 - 9 + 5 (S8, S10)
    assert wrong["health"] == 15
    assert right["best"] != wrong["best"]


@pytest.mark.parametrize("name", ["MAX_HEALTH", "ROOM_SIZE", "WEAPON_BASE", "POTION_BASE"])
def test_the_numbers_are_named_once(name: str) -> None:
    """Every module uses the kernel's constant: none defines its own."""
    for path in PACKAGE.rglob("*.py"):
        if path.name == "kernel.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert f"\n{name} = " not in text, f"{path} defines {name} again"
