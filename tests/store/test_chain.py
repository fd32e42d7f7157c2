"""The hash chain every append-only log shares (argus.store.chain): each link covers its content
and the hash before it, and ``first_broken`` names the first link that does not hold."""

from __future__ import annotations

import hashlib
import json

import pytest

from argus.store.chain import GENESIS, BrokenLink, Link, canonical, first_broken, link_hash


def chain(*contents: dict[str, object]) -> list[Link]:
    links, previous = [], GENESIS
    for seq, content in enumerate(contents, 1):
        digest = link_hash(previous, content)
        links.append(Link(seq, previous, digest, content))
        previous = digest
    return links


def test_a_link_hashes_its_canonical_content_with_the_previous_hash() -> None:
    content = {"b": [1, "é"], "a": None}
    text = json.dumps({**content, "prev": "x"}, sort_keys=True, separators=(",", ":"))
    assert link_hash("x", content) == hashlib.sha256(text.encode()).hexdigest()
    assert link_hash("x", content) == link_hash("x", {"a": None, "b": [1, "é"]})  # key order
    assert link_hash("x", content) != link_hash("y", content)
    assert canonical({"é": 1}) == '{"\\u00e9":1}'


@pytest.mark.parametrize("key", ["prev", "hash"])
def test_content_may_not_use_the_chain_s_own_keys(key: str) -> None:
    with pytest.raises(ValueError, match=key):
        link_hash("", {key: "forged"})


def test_the_first_link_follows_the_empty_hash() -> None:
    text = json.dumps({"n": 1, "prev": ""}, sort_keys=True, separators=(",", ":"))
    first = Link(1, "", hashlib.sha256(text.encode()).hexdigest(), {"n": 1})
    assert GENESIS == "" and first_broken([first]) is None


def test_an_untouched_chain_holds() -> None:
    assert first_broken(chain({"n": 1}, {"n": 2}, {"n": 3})) is None
    assert first_broken([]) is None


def test_an_edited_link_is_named() -> None:
    links = chain({"n": 1}, {"n": 2}, {"n": 3})
    links[1] = Link(2, links[1].prev, links[1].hash, {"n": 20})
    assert first_broken(links) == BrokenLink(2, "its hash does not match its content (edited)")


def test_an_edited_link_with_its_hash_recomputed_breaks_the_next_one() -> None:
    links = chain({"n": 1}, {"n": 2}, {"n": 3})
    forged = link_hash(links[0].hash, {"n": 20})
    links[1] = Link(2, links[0].hash, forged, {"n": 20})
    broken = first_broken(links)
    assert broken is not None and broken.seq == 3 and "prev differs" in broken.why


@pytest.mark.parametrize("drop", [0, 1])
def test_a_dropped_link_is_named_at_the_one_after_it(drop: int) -> None:
    links = chain({"n": 1}, {"n": 2}, {"n": 3})
    del links[drop]
    broken = first_broken(links)
    assert broken is not None and broken.seq == drop + 2


def test_swapped_links_are_caught() -> None:
    links = chain({"n": 1}, {"n": 2}, {"n": 3})
    links[1], links[2] = links[2], links[1]
    broken = first_broken(links)
    assert broken is not None and broken.seq == 3


def test_a_first_link_that_claims_a_predecessor_is_caught() -> None:
    (only,) = chain({"n": 1})
    moved = Link(1, "0" * 64, link_hash("0" * 64, {"n": 1}), {"n": 1})
    assert first_broken([only]) is None
    broken = first_broken([moved])
    assert broken is not None and broken.seq == 1 and "prev differs" in broken.why
    assert str(broken) == "link 1: does not follow the link before it (prev differs)"


def test_content_that_is_not_plain_json_is_a_broken_link_not_a_crash() -> None:
    link = Link(1, GENESIS, "0" * 64, {"n": object()})
    assert first_broken([link]) == BrokenLink(1, "its content is not plain JSON")
