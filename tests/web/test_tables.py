"""Online co-op tables through the API and their WebSocket: seats, turns, the help card
the partner fights (C5), pointing (C11 silent_leader), presence, watchers, records.

Every test runs on SQLite and on PostgreSQL (the ``db_url`` fixture)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scoundrel.core import Rules, State, parse_cards


def open_table(client: TestClient, **options: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"ruleset": "coop", "options": options})
    assert response.status_code == 201, response.text
    return response.json()


def seated(
    new_client: Callable[..., TestClient], **options: Any
) -> tuple[TestClient, TestClient, dict[str, Any]]:
    """Two players at one table: hero 1 made it, hero 2 followed the invite."""
    one, two = new_client(), new_client()
    table = open_table(one, **options)
    joined = two.post("/api/tables/join", json={"invite": table["invite"]})
    assert joined.status_code == 200, joined.text
    return one, two, joined.json()


def player_of(hero: int, one: TestClient, two: TestClient) -> TestClient:
    return one if hero == 1 else two


def act(one: TestClient, two: TestClient, view: dict[str, Any], move: str) -> dict[str, Any]:
    """The player whose turn it is plays ``move``."""
    who = player_of(view["to_act"], one, two)
    response = who.post(
        f"/api/tables/{view['id']}/moves", json={"move": move, "after": len(view["moves"])}
    )
    assert response.status_code == 200, response.text
    return response.json()


def test_a_table_opens_with_an_invite_for_hero_2(client: TestClient) -> None:
    table = open_table(client)
    assert table["online"] is True
    assert table["you"] == 1
    assert table["to_act"] == 1  # C3: hero 1 leads the first room by default
    assert [seat["taken"] for seat in table["seats"]] == [True, False]
    assert isinstance(table["invite"], str) and len(table["invite"]) >= 16
    assert table["ruleset"] == "coop" and len(table["heroes"]) == 2
    assert "deck" not in str(table["record"])  # hidden: the game is in play


def test_a_frail_relentless_table_plays_its_variants(new_client: Callable[..., TestClient]) -> None:
    """V1, V2 at a table on two devices: both players see two heroes on 14 of 14 and no
    flee among the leader's moves."""
    one, two, view = seated(new_client, flee="never", health=14)
    assert view["options"]["flee"] == "never" and view["options"]["health"] == 14
    for player in (one, two):
        seen = player.get(f"/api/tables/{view['id']}").json()
        assert [(h["health"], h["max_health"]) for h in seen["heroes"]] == [(14, 14)] * 2
        assert "F" not in [entry["move"] for entry in seen.get("legal", [])]
    first = one.get(f"/api/tables/{view['id']}").json()["legal"][0]["move"]
    after = act(one, two, view, first)
    assert all(hero["health"] <= 14 for hero in after["heroes"])


def test_only_co_op_in_a_random_dungeon(client: TestClient) -> None:
    response = client.post("/api/tables", json={"ruleset": "solo"})
    assert response.status_code == 422


def test_the_friend_takes_hero_2_and_a_third_visitor_only_watches(
    new_client: Callable[..., TestClient],
) -> None:
    one, _two, view = seated(new_client)
    assert view["you"] == 2
    assert view["invite"] is None
    assert [seat["taken"] for seat in view["seats"]] == [True, True]
    # hero 1 no longer sees an invite: the table is full
    assert one.get(f"/api/tables/{view['id']}").json()["invite"] is None
    third = new_client()
    table = one.get(f"/api/tables/{view['id']}").json()
    watched = third.get(f"/api/tables/{view['id']}")
    assert watched.status_code == 200
    seen = watched.json()
    assert seen["you"] is None
    assert seen["owner"] is False
    assert seen["room"] == table["room"]
    assert seen["record"] is None  # never more than a player sees
    move = table["legal"][0]["move"]
    refused = third.post(f"/api/tables/{view['id']}/moves", json={"move": move})
    assert refused.status_code == 403
    assert "watching" in refused.json()["error"]["message"]


def test_a_full_table_refuses_a_third_player(new_client: Callable[..., TestClient]) -> None:
    one = new_client()
    table = open_table(one)
    two, three = new_client(), new_client()
    assert two.post("/api/tables/join", json={"invite": table["invite"]}).status_code == 200
    response = three.post("/api/tables/join", json={"invite": table["invite"]})
    assert response.status_code == 403
    assert "taken" in response.json()["error"]["message"]
    # the player already seated comes back to their seat with the same link
    back = two.post("/api/tables/join", json={"invite": table["invite"]})
    assert back.status_code == 200 and back.json()["you"] == 2
    # the maker following their own link keeps hero 1
    assert one.post("/api/tables/join", json={"invite": table["invite"]}).json()["you"] == 1


def test_an_unknown_invite_is_refused(client: TestClient) -> None:
    response = client.post("/api/tables/join", json={"invite": "no-such-invite-xyz"})
    assert response.status_code == 404
    assert "invitation" in response.json()["error"]["message"]


def test_only_the_leader_acts_on_the_room(new_client: Callable[..., TestClient]) -> None:
    """C3/C4: the leader resolves the room's cards; the partner waits."""
    one, two, view = seated(new_client)
    assert view["to_act"] == 1
    move = next(entry["move"] for entry in view["legal"] if not entry["help"])
    refused = two.post(f"/api/tables/{view['id']}/moves", json={"move": move})
    assert refused.status_code == 409
    assert "not your turn" in refused.json()["error"]["message"]
    assert one.get(f"/api/tables/{view['id']}").json()["moves"] == []  # nothing changed
    after = act(one, two, view, move)
    assert after["moves"] == [move]


def test_the_first_leader_option_gives_hero_2_the_first_room(
    new_client: Callable[..., TestClient],
) -> None:
    _one, _two, view = seated(new_client, first_leader=2)
    assert view["to_act"] == 2


def deal_with_a_monster_to_give(new_client: Callable[..., TestClient], **options: Any):  # type: ignore[no-untyped-def]
    """A table whose room holds a monster the leader may give (tries a few deals)."""
    for _ in range(40):
        one, two, view = seated(new_client, **options)
        gives = [entry for entry in view["legal"] if entry.get("give")]
        if gives:
            return one, two, view, gives[0]["card"]
    pytest.fail("no deal with a monster to give in 40 tables")


def test_the_partner_chooses_how_to_fight_a_given_monster(
    new_client: Callable[..., TestClient],
) -> None:
    """C5 (seed 002: the partner fights it, bare-handed or with their own weapon): the
    leader gives the monster; the partner chooses; the record holds one token."""
    one, two, view, card = deal_with_a_monster_to_give(new_client)
    # the leader is offered "give" without choosing the weapon, never >KS/w or >KS/b
    tokens = {entry["move"] for entry in view["legal"]}
    assert f">{card}" in tokens
    assert f">{card}/w" not in tokens and f">{card}/b" not in tokens
    # labelled for the page to translate: the partner (C5) chooses how to fight it
    give = next(entry for entry in view["legal"] if entry["move"] == f">{card}")
    assert give["label"] == {"code": "give_monster", "card": card, "hero": 2, "deadly": False}
    # the leader may not choose for the partner
    refused = one.post(f"/api/tables/{view['id']}/moves", json={"move": f">{card}/b"})
    assert refused.status_code == 400
    given = act(one, two, view, f">{card}")
    assert given["pending"] == card
    assert given["to_act"] == 2
    assert given["moves"] == []  # nothing is played yet
    # now the partner's view offers exactly the ways to fight it
    partner_view = two.get(f"/api/tables/{view['id']}").json()
    assert {entry["move"] for entry in partner_view["legal"]} <= {f">{card}/w", f">{card}/b"}
    assert f">{card}/b" in {entry["move"] for entry in partner_view["legal"]}
    # in the partner's own words: "Fight K♠ bare-handed", not "Hero 2 fights K♠ …"
    bare = next(entry for entry in partner_view["legal"] if entry["move"] == f">{card}/b")
    value = parse_cards(card)[0].value
    assert bare["label"] == {
        "code": "fight_bare",
        "card": card,
        "hero": 2,
        "damage": value,
        "health": 20 - value,
        "deadly": False,
    }
    # the leader waits
    waits = one.post(f"/api/tables/{view['id']}/moves", json={"move": "F"})
    assert waits.status_code == 409
    fought = act(one, two, partner_view, f">{card}/b")
    assert fought["moves"] == [f">{card}/b"]
    assert fought["pending"] is None
    assert fought["to_act"] == 1
    # bare-handed: the partner, not the leader, took the monster's full value (S8, C5)
    assert fought["heroes"][1]["health"] == 20 - value
    assert fought["heroes"][0]["health"] == 20


def test_the_leader_can_take_back_a_give_before_the_partner_answers(
    new_client: Callable[..., TestClient],
) -> None:
    one, two, view, card = deal_with_a_monster_to_give(new_client)
    act(one, two, view, f">{card}")
    refused = two.post(f"/api/tables/{view['id']}/take-back")
    assert refused.status_code == 409
    back = one.post(f"/api/tables/{view['id']}/take-back")
    assert back.status_code == 200, back.text
    assert back.json()["pending"] is None and back.json()["to_act"] == 1


def test_a_whole_table_is_played_and_lands_in_both_records(
    new_client: Callable[..., TestClient],
) -> None:
    one, two, view = seated(new_client)
    one.put("/api/me/nickname", json={"nickname": "Anna"})
    two.put("/api/me/nickname", json={"nickname": "Ben"})
    for _ in range(200):
        if view["status"] != "playing":
            break
        plain = [entry for entry in view["legal"] if not entry.get("give")]
        best = max(plain, key=lambda entry: min(entry["health"])) if plain else view["legal"][0]
        view = act(one, two, view, best["move"])
    assert view["status"] in ("won", "lost")
    # the record is the same for both players and replays through the core
    record = one.get(f"/api/games/{view['id']}/record").json()
    state = State.new(Rules.from_options("coop", record["options"]), parse_cards(record["deck"]))
    for token in record["moves"].split():
        state = state.apply(token)
    assert state.status.value == view["status"]
    mine = one.get("/api/me").json()["history"]
    theirs = two.get("/api/me").json()["history"]
    assert [game["id"] for game in mine] == [view["id"]]
    assert [game["id"] for game in theirs] == [view["id"]]
    assert mine[0]["partner"] == "Ben" and theirs[0]["partner"] == "Anna"
    assert mine[0]["online"] is True
    assert two.get("/api/me").json()["stats"][0]["played"] == 1


def test_two_tabs_send_the_same_move_at_once_it_is_applied_once(
    new_client: Callable[..., TestClient],
) -> None:
    one, _two, view = seated(new_client)
    move = view["legal"][0]["move"]
    first = one.post(f"/api/tables/{view['id']}/moves", json={"move": move, "after": 0})
    second = one.post(f"/api/tables/{view['id']}/moves", json={"move": move, "after": 0})
    assert first.status_code == 200
    assert second.status_code == 409
    assert one.get(f"/api/tables/{view['id']}").json()["moves"] == [move]


# ---------------------------------------------------------------------- the live socket


def receive_until(socket: Any, kind: str, limit: int = 20) -> dict[str, Any]:
    for _ in range(limit):
        message = socket.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message in {limit}")


def test_both_sockets_follow_a_move_and_the_partner_sees_presence(
    new_client: Callable[..., TestClient],
) -> None:
    one, two, view = seated(new_client)
    path = f"/api/tables/{view['id']}/live"
    with one.websocket_connect(path) as first:
        hello = receive_until(first, "view")
        assert hello["game"]["you"] == 1
        with two.websocket_connect(path) as second:
            assert receive_until(second, "view")["game"]["you"] == 2
            presence = receive_until(first, "presence")
            assert presence == {"type": "presence", "hero": 2, "online": True}
            assert receive_until(second, "presence")["hero"] == 1
            move = view["legal"][0]["move"]
            act(one, two, view, move)
            pushed = receive_until(second, "view")["game"]
            assert pushed["moves"] == [move]
            assert pushed["you"] == 2
            assert receive_until(first, "view")["game"]["moves"] == [move]
        gone = receive_until(first, "presence")
        assert gone == {"type": "presence", "hero": 2, "online": False}


def test_the_partner_points_at_a_card_and_the_leader_sees_it(
    new_client: Callable[..., TestClient],
) -> None:
    one, two, view = seated(new_client)
    path = f"/api/tables/{view['id']}/live"
    card = view["room"][0]
    with one.websocket_connect(path) as leader, two.websocket_connect(path) as partner:
        receive_until(leader, "view")
        receive_until(partner, "view")
        partner.send_json({"type": "point", "card": card})
        assert receive_until(leader, "point") == {"type": "point", "hero": 2, "card": card}


def test_a_silent_leader_table_carries_nothing_but_moves(
    new_client: Callable[..., TestClient],
) -> None:
    """C11 silent_leader: the partner may not advise the leader. Neither pointing nor
    selecting reaches the leader (nor a watcher); the partner leaving does (presence)."""
    one, two, view = seated(new_client, silent_leader=True)
    assert view["silent_leader"] is True
    path = f"/api/tables/{view['id']}/live"
    with one.websocket_connect(path) as leader:
        receive_until(leader, "view")
        with two.websocket_connect(path) as partner:
            receive_until(partner, "view")
            for kind in ("point", "select"):
                partner.send_json({"type": kind, "card": view["room"][0]})
                partner.send_json({"type": kind, "card": None})
            partner.send_json({"type": "select", "card": "<b>"})
            leader.send_json({"type": "select", "card": view["room"][1]})
        kinds = []
        while kinds[-1:] != [("presence", False)]:
            message = leader.receive_json()
            kinds.append((message["type"], message.get("online")))
        assert not {kind for kind, _ in kinds} & {"point", "select"}, kinds


def test_only_a_card_is_pointed_at(new_client: Callable[..., TestClient]) -> None:
    """A selection or a pointer names a card (N1) or none: anything else is dropped."""
    one, two, view = seated(new_client)
    path = f"/api/tables/{view['id']}/live"
    with one.websocket_connect(path) as leader, two.websocket_connect(path) as partner:
        receive_until(leader, "view")
        receive_until(partner, "view")
        for junk in ("<b>", "XX", 7, 1.5, True, ["KS"], {"code": "KS"}, "K" * 600):
            partner.send_json({"type": "select", "card": junk})
        partner.send_json({"type": "select", "card": view["room"][0]})
        assert receive_until(leader, "select") == {
            "type": "select",
            "hero": 2,
            "card": view["room"][0],
        }


def test_a_nudge_that_changes_nothing_sends_no_view(
    new_client: Callable[..., TestClient],
) -> None:
    """Every socket rereads its table on a nudge, but sends its viewer a view only when
    the table changed: a player coming back to their seat (a nudge) changes nothing."""
    one, two = new_client(), new_client()
    table = open_table(one)
    assert two.post("/api/tables/join", json={"invite": table["invite"]}).status_code == 200
    path = f"/api/tables/{table['id']}/live"
    with one.websocket_connect(path) as leader, two.websocket_connect(path) as partner:
        receive_until(leader, "view")
        receive_until(partner, "view")
        again = two.post("/api/tables/join", json={"invite": table["invite"]})
        assert again.status_code == 200 and again.json()["you"] == 2
        partner.send_json({"type": "select", "card": None})  # relayed after the nudge
        kinds = []
        while not kinds or kinds[-1] != "select":
            kinds.append(leader.receive_json()["type"])
        assert "view" not in kinds


def test_a_watcher_socket_sees_the_table_read_only(new_client: Callable[..., TestClient]) -> None:
    one, two, view = seated(new_client)
    third = new_client()
    with third.websocket_connect(f"/api/tables/{view['id']}/live") as watcher:
        seen = receive_until(watcher, "view")["game"]
        assert seen["you"] is None and seen["record"] is None
        watcher.send_json({"type": "point", "card": view["room"][0]})  # ignored
        act(one, two, view, view["legal"][0]["move"])
        assert len(receive_until(watcher, "view")["game"]["moves"]) == 1


def test_a_socket_for_no_table_is_closed(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect("/api/tables/nothing/live") as socket,
    ):
        socket.receive_json()
    assert closed.value.code == 4404


def test_the_single_table_routes_refuse_an_online_table(
    new_client: Callable[..., TestClient],
) -> None:
    """Turns are kept by the table: its maker cannot play, undo or ask for a hint through
    the routes of a game at one keyboard, and it is not their "current" game there."""
    one, _two, view = seated(new_client)
    move = view["legal"][0]["move"]
    played = one.post(f"/api/games/{view['id']}/moves", json={"move": move})
    assert played.status_code == 409
    assert "online table" in played.json()["error"]["message"]
    assert one.post(f"/api/games/{view['id']}/undo").status_code == 403
    assert one.get(f"/api/games/{view['id']}/hint").status_code == 409
    assert one.get("/api/games/current").json() == {"game": None}
    assert one.get(f"/api/tables/{view['id']}").json()["moves"] == []


def test_a_socket_from_another_site_is_refused(new_client: Callable[..., TestClient]) -> None:
    """A page of another site may not follow a table with this browser's cookie."""
    from starlette.websockets import WebSocketDisconnect

    one, _two, view = seated(new_client)
    path = f"/api/tables/{view['id']}/live"
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        one.websocket_connect(path, headers={"origin": "https://elsewhere.example"}) as socket,
    ):
        socket.receive_json()
    assert closed.value.code == 4403
    with one.websocket_connect(path, headers={"origin": "http://testserver"}) as socket:
        assert receive_until(socket, "view")["game"]["you"] == 1


def test_a_flooding_socket_is_closed_and_the_table_goes_on(
    new_client: Callable[..., TestClient],
) -> None:
    from starlette.websockets import WebSocketDisconnect

    one, two, view = seated(new_client)
    path = f"/api/tables/{view['id']}/live"
    with two.websocket_connect(path) as flood:
        receive_until(flood, "view")
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(200):
                flood.send_text("not json")
            for _ in range(200):
                flood.receive_json()
        assert closed.value.code == 1008
    after = act(one, two, view, view["legal"][0]["move"])
    assert len(after["moves"]) == 1


def test_moves_and_a_take_back_over_the_table_socket(
    new_client: Callable[..., TestClient],
) -> None:
    """The table page acts over its socket: each action is answered there as the HTTP
    route answers it, the partner's socket gets the new view, and refusals come in the
    API's error shape with their status."""
    one, two, view = seated(new_client)
    path = f"/api/tables/{view['id']}/live"
    with one.websocket_connect(path) as leader, two.websocket_connect(path) as partner:
        receive_until(leader, "view")
        receive_until(partner, "view")
        stale = {"type": "move", "id": 1, "move": view["legal"][0]["move"], "after": 5}
        leader.send_json(stale)
        refused = receive_until(leader, "answer")
        assert refused["id"] == 1 and refused["status"] == 409
        assert refused["error"]["reason"] == "stale_position"
        partner.send_json({"type": "move", "id": 2, "move": view["legal"][0]["move"]})
        wrong_turn = receive_until(partner, "answer")
        assert (wrong_turn["status"], wrong_turn["error"]["reason"]) == (
            409,
            "not_your_turn_room",
        )
        leader.send_json({"type": "take_back", "id": 6})  # nothing was given
        nothing = receive_until(leader, "answer")
        assert (nothing["status"], nothing["error"]["reason"]) == (409, "nothing_given")
        move = view["legal"][0]["move"]
        leader.send_json({"type": "move", "id": 3, "move": move, "after": 0})
        answered = receive_until(leader, "answer")
        assert answered["id"] == 3 and answered["game"]["moves"] == [move]
        assert answered["game"]["you"] == 1
        pushed = receive_until(partner, "view")["game"]
        assert pushed["moves"] == [move] and pushed["you"] == 2
        # a monster given, then taken back, over the socket
        given = next((e for e in answered["game"]["legal"] if e.get("give")), None)
        if given is not None and answered["game"]["to_act"] == 1:
            leader.send_json({"type": "move", "id": 4, "move": given["move"], "after": 1})
            assert receive_until(leader, "answer")["game"]["pending"] == given["card"]
            leader.send_json({"type": "take_back", "id": 5})
            back = receive_until(leader, "answer")
            assert back["id"] == 5 and back["game"]["pending"] is None
    shown = one.get(f"/api/tables/{view['id']}").json()
    assert shown["moves"] == [move] and shown["pending"] is None


def test_a_watcher_acting_on_the_table_socket_is_refused(
    new_client: Callable[..., TestClient],
) -> None:
    one, _two, view = seated(new_client)
    third = new_client()
    with third.websocket_connect(f"/api/tables/{view['id']}/live") as watcher:
        receive_until(watcher, "view")
        watcher.send_json({"type": "move", "id": "w1", "move": view["legal"][0]["move"]})
        refused = receive_until(watcher, "answer")
        assert refused["id"] == "w1" and refused["status"] == 403
        assert refused["error"]["reason"] == "watching"
    assert one.get(f"/api/tables/{view['id']}").json()["moves"] == []


def test_play_again_brings_the_partner_to_the_next_table(
    new_client: Callable[..., TestClient],
) -> None:
    """Issue 35: "Play again" on both pages opened two tables. The first to ask opens the
    next table; the partner's page is told it (with its invite, which a watcher is not
    told) and joins it as hero 2."""
    one, two, view = seated(new_client)
    watcher = new_client()
    while view["status"] == "playing":
        view = act(one, two, view, view["legal"][0]["move"])
    path = f"/api/tables/{view['id']}/live"
    with one.websocket_connect(path) as first, watcher.websocket_connect(path) as third:
        receive_until(first, "view")
        receive_until(third, "view")
        with two.websocket_connect(path) as second:
            receive_until(second, "view")
            early = two.post("/api/tables", json={"ruleset": "coop", "after": "nothing"})
            assert early.status_code == 201  # after a table nobody sat at: nobody told
            again = two.post("/api/tables", json={"ruleset": "coop", "after": view["id"]})
            assert again.status_code == 201, again.text
            nxt = again.json()
            told = receive_until(first, "again")
            assert told == {"type": "again", "hero": 2, "table": nxt["id"], "invite": nxt["invite"]}
        kinds = []  # hero 2 leaves: the watcher hears that, and never the invite before it
        while kinds[-1:] != [("presence", False)]:
            message = third.receive_json()
            kinds.append((message["type"], message.get("online")))
        assert "again" not in {kind for kind, _ in kinds}, kinds
    joined = one.post("/api/tables/join", json={"invite": told["invite"]})
    assert joined.status_code == 200 and joined.json()["you"] == 2
    assert joined.json()["id"] == nxt["id"]
