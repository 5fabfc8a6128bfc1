"""The browser is told what the rules core says (issue 38): each legal move of a view
carries the core's label (code and params, as a refusal), each hero its weapon's limit,
and the page's boot data every move's words, so that no script works a rule out."""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient

from scoundrel.core import Move, Rules, State, random_deal
from scoundrel.core.label import action_labels, move_label, weapon_limit
from scoundrel.core.moves import CARD_MOVES
from scoundrel.web.position import position_view

RULES = {
    "solo": Rules.solo(),
    "solo-lenient": Rules.solo(weapon="lenient"),
    "coop": Rules.coop(),
    "coop-strict": Rules.coop(weapon="strict"),
}


def games(rules: Rules) -> list[State]:
    """Every position of a few games played at random (seeded) under ``rules``."""
    states = []
    for seed in range(6):
        pick = random.Random(seed)
        state = State.new(rules, random_deal(rules, seed))
        states.append(state)
        while not state.is_over:
            state = state.apply(pick.choice(state.legal_moves))
            states.append(state)
    return states


@pytest.mark.parametrize("states", [games(rules) for rules in RULES.values()], ids=list(RULES))
def test_each_legal_move_carries_the_core_label(states: list[State]) -> None:
    """S5-S11, C5-C8: the view's labels are the core's, code and params, and deadly."""
    for state in states:
        view = position_view(state)
        labels = action_labels(state)
        assert [entry["move"] for entry in view["legal"]] == [m.token for m in labels]
        for entry, (move, label) in zip(view["legal"], labels.items(), strict=True):
            assert entry["label"] == {"code": label.code, **label.params, "deadly": label.deadly}
            assert entry["label"]["deadly"] == (entry["health"][entry["hero"] - 1] <= 0)
            assert entry["hero"] == move.hero(state.leader)


@pytest.mark.parametrize("states", [games(rules) for rules in RULES.values()], ids=list(RULES))
def test_each_hero_carries_the_core_weapon_limit(states: list[State]) -> None:
    """S9, C7: the limit the page writes beside a weapon is the core's."""
    for state in states:
        view = position_view(state)
        for shown, hero in zip(view["heroes"], state.heroes, strict=True):
            limit = weapon_limit(hero, state.rules)
            assert shown["limit"] == {"code": limit.code, "n": limit.n}
            assert shown["max_health"] == 20


def test_the_page_boot_data_names_every_move(client: TestClient) -> None:
    """N2: the page names a move of a replay, a hint or an analysis from its boot data,
    the core's words for every move, and never reads notation itself."""
    page = client.get("/").text
    moves = [Move("F"), *(move for card_moves in CARD_MOVES for move in card_moves)]
    for move in moves:
        label = move_label(move)
        words = {"code": label.code, **label.params}
        assert f'"{move.token}": {json.dumps(words)}' in page
