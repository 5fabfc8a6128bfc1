"""Rulesets the engines are checked in against the core, shared by the batch's tests: every
rule option of the original games, and the variants (V1, V2) on their own."""

from __future__ import annotations

from scoundrel.core import Rules

ORIGINAL = {
    "solo": Rules.solo(),
    "solo-lenient-dungeon-only": Rules.solo(weapon="lenient", death_score="dungeon-only"),
    "coop": Rules.coop(),
    "coop-strict-easier-harder-leader2": Rules.coop(
        weapon="strict", easier=True, harder=True, first_leader=2, silent_leader=True
    ),
}
VARIANTS = {
    "solo-relentless-frail": Rules.solo(flee="never", health=14),
    "coop-frail-relentless": Rules.coop(health=12, flee="never"),
}
