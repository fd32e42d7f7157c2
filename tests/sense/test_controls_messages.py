"""Which websocket messages and requests the dead-control probe counts as a control's (no
browser): a known keep-alive never, nor one the page also sent unprompted (the same message or
request, or the same shape when the page's own differed only in their digits), nor one of the
shape a click on the body sent too (a click tracker); anything else counts."""

from __future__ import annotations

from typing import Any

import pytest

from argus.sense._controls import (
    MAX_LEARNED,
    MessageKey,
    Unprompted,
    _ambient_record,
    _Held,
    _judge,
    _Seen,
    keep_alive,
    message_key,
    request_key,
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


def _entry() -> dict[str, Any]:
    return {"testid": "x", "outcome": "dead", "effects": []}


def _judged(held: _Held, ambient: _Seen | None = None) -> list[tuple[str, list[str]]]:
    controls = [_entry() for _ in held.seen]
    _judge(controls, held, ambient)
    return [(c["outcome"], c["effects"]) for c in controls]


def test_a_message_the_page_sent_unprompted_later_is_discounted_at_the_end() -> None:
    held = _Held()
    beat, own = message_key("beat"), message_key('{"action":"archive"}')
    held.seen = {
        0: _Seen(messages=[beat]),
        1: _Seen(kinds=["dom"], messages=[beat]),
        2: _Seen(messages=[beat, own]),
    }
    held.unprompted.learn(beat)  # first seen unprompted after those watches
    assert _judged(held) == [
        ("dead", []),
        ("live", ["dom"]),
        ("live", ["message"]),  # one message of its own: it still counts
    ]


def _post(body: str, path: str = "/_dash-update-component") -> tuple[MessageKey, str]:
    return request_key("POST", f"http://app.test{path}", body.encode()), f"POST {path}"


def test_a_poll_is_learned_by_method_url_and_body_and_another_body_counts() -> None:
    held = _Held()
    for n in (3, 4):  # the page's own interval: its counter varies
        held.polled.learn(_post(f'{{"inputs":[{{"id":"interval","value":{n}}}]}}')[0])
    held.polled.learn(request_key("GET", "http://app.test/status?x=1", None))
    held.seen = {
        0: _Seen(requests=[_post('{"inputs":[{"id":"interval","value":17}]}')]),
        1: _Seen(requests=[_post('{"inputs":[{"id":"save","value":1}]}')]),
        2: _Seen(requests=[(request_key("GET", "http://app.test/status?x=1#top", None), "")]),
        3: _Seen(requests=[(request_key("GET", "http://app.test/status?x=2", None), "")]),
        4: _Seen(requests=[(request_key("POST", "http://app.test/status?x=1", b""), "")]),
    }
    assert _judged(held) == [
        ("dead", []),  # the poll's shape, another count
        ("live", ["request"]),  # the same path, another input named: another callback
        ("dead", []),  # the same request (a fragment is never sent)
        ("live", ["request"]),  # one value of its digits seen: another is the control's
        ("live", ["request"]),  # another method
    ]


def test_the_ambient_click_s_effects_are_no_control_s() -> None:
    held = _Held()
    track = _post('{"t":1796219370381}', "/track")
    pixel = "childList #document:0>HTML:0>BODY:0  +IMG -"
    ambient = _Seen(kinds=["dom"], requests=[track], dom=[pixel])
    held.seen = {
        0: _Seen(kinds=["dom"], requests=[_post('{"t":1796219370999}', "/track")], dom=[pixel]),
        1: _Seen(kinds=["dom"], requests=[track], dom=[pixel, "characterData P:0 +-"]),
        2: _Seen(requests=[track, _post('{"t":1,"target":"save"}', "/track")]),
        3: _Seen(kinds=["dom"], dom=None),  # too many mutations to tell: counts
        4: _Seen(kinds=["focus"], requests=[track]),
    }
    controls = [_entry() for _ in held.seen]
    _judge(controls, held, ambient)
    assert [(c["outcome"], c["effects"], c.get("not_counted")) for c in controls] == [
        ("dead", [], ["dom", "request"]),
        ("live", ["dom"], ["request"]),
        ("live", ["request"], None),  # a body of another shape (not digits only) counts
        ("live", ["dom"], None),
        ("live", ["focus"], ["request"]),
    ]
    assert controls[2]["requests"] == ["POST /track"]
    assert _ambient_record(ambient) == {
        "measured": True,
        "effects": ["dom", "request"],
        "requests": ["POST /track"],
    }
    assert _ambient_record(None)["measured"] is False
