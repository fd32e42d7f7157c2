"""Which websocket messages the dead-control probe counts as a control's (no browser): a known
keep-alive never, nor one the page also sent unprompted (the same message, or the same shape
when the page's own messages differed only in their digits); any other message counts."""

from __future__ import annotations

from typing import Any

import pytest

from argus.sense.controls import (
    MAX_LEARNED,
    Unprompted,
    _discount_unprompted,
    _Held,
    keep_alive,
    message_key,
)

SOCKET_IO = "ws://app.test/socket.io/?EIO=4&transport=websocket"
PLAIN = "ws://app.test/stream"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        (SOCKET_IO, "2"),
        (SOCKET_IO, "3"),
        (SOCKET_IO, "2probe"),
        (SOCKET_IO, "5"),
        (PLAIN, '[null,"12","phoenix","heartbeat",{}]'),
        (PLAIN, '{"topic":"phoenix","event":"heartbeat","payload":{},"ref":"3"}'),
        (PLAIN, '{"type":"ping"}'),
        (PLAIN, '{"type":"pong","payload":{}}'),
        (PLAIN, '{"type":6}\x1e'),
    ],
)
def test_known_keep_alives_are_no_control_s_message(url: str, message: str) -> None:
    assert keep_alive(url, message)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        (SOCKET_IO, '42["click",{"id":5}]'),  # a socket.io event: the app's own message
        (PLAIN, "2"),  # "2" is engine.io's ping only on an engine.io socket
        (PLAIN, '[null,"12","room:1","click",{}]'),
        (PLAIN, '{"type":"ping","id":"x","data":1}'),
        (PLAIN, '{"type":1,"target":"Send"}\x1e'),
        (PLAIN, b"\x02"),
        (PLAIN, '{"type":"ping"}' + " " * 600),  # too long to be a keep-alive
    ],
)
def test_other_messages_are_not_keep_alives(url: str, message: str | bytes) -> None:
    assert not keep_alive(url, message)


def test_a_message_sent_unprompted_is_known_whatever_its_timing() -> None:
    seen = Unprompted()
    seen.learn(message_key("beat"))
    seen.learn(message_key(b"\x00\x01"))
    assert seen.knows(message_key("beat")) and seen.knows(message_key(b"\x00\x01"))
    assert not seen.knows(message_key("beat!"))
    assert not seen.knows(message_key(b"\x00\x02"))
    assert not seen.knows(message_key("\x00\x01"))  # text is not the bytes of the same


def test_a_counter_in_a_heartbeat_is_learned_only_once_it_varies() -> None:
    seen = Unprompted()
    seen.learn(message_key("tick 41"))
    # One message of a shape says nothing of its digits: another value is the control's.
    assert not seen.knows(message_key("tick 42"))
    seen.learn(message_key("tick 42"))
    assert seen.knows(message_key("tick 9000"))  # the page's own counter, whatever its value
    assert not seen.knows(message_key("tock 1"))
    assert not seen.knows(message_key("tick x"))


def test_learning_is_bounded() -> None:
    seen = Unprompted()
    for n in range(MAX_LEARNED + 10):
        seen.learn(message_key(f"m{chr(0x4E00 + n)}"))
    assert seen.knows(message_key(f"m{chr(0x4E00)}"))
    assert not seen.knows(message_key(f"m{chr(0x4E00 + MAX_LEARNED + 5)}"))


def _entry(effects: list[str]) -> dict[str, Any]:
    return {"testid": "x", "outcome": "live" if effects else "dead", "effects": effects}


def test_a_message_the_page_sent_unprompted_later_is_discounted_at_the_end() -> None:
    held = _Held()
    beat, own = message_key("beat"), message_key('{"action":"archive"}')
    controls = [_entry(["message"]), _entry(["dom", "message"]), _entry(["message"])]
    held.sent = {0: [beat], 1: [beat], 2: [beat, own]}
    held.unprompted.learn(beat)  # first seen unprompted after those watches
    _discount_unprompted(controls, held)
    assert [(c["outcome"], c["effects"]) for c in controls] == [
        ("dead", []),
        ("live", ["dom"]),
        ("live", ["message"]),  # one message of its own: it still counts
    ]
