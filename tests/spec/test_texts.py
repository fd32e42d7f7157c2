"""Text expectations: templates over the fixture, rendered into the view's contract."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from argus.errors import InputError
from argus.judge.assemble import view_contract
from argus.spec import View, load_spec
from argus.spec.texts import render_texts
from tests.support.habits import HABITS_SPEC, copy_habits


def test_templates_render_over_the_fixture(tmp_path: Path) -> None:
    fixture = tmp_path / "cart.json"
    fixture.write_text(json.dumps({"items": [{"qty": 2, "price": 1.5}]}))
    texts = render_texts(
        (
            "{{ items|length }} {{ 'item'|plural(items|length) }}",
            "{% for i in items %}{{ '%.2f'|format(i.qty * i.price) }}\n{% endfor %}",
        ),
        fixture,
        "spec.json",
    )
    assert texts == ["1 item", "3.00"]


@pytest.mark.parametrize("template", ["{{ nope }}", "{% for %}", "{{ ''.__class__ }}"])
def test_a_template_that_does_not_render_is_bad_input(tmp_path: Path, template: str) -> None:
    with pytest.raises(InputError, match=r"spec\.json: text template"):
        render_texts((template,), None, "spec.json")


def test_the_example_contract_holds_the_rendered_texts_and_the_spec_words(tmp_path: Path) -> None:
    spec = load_spec(copy_habits(tmp_path) / HABITS_SPEC)
    contract = view_contract(spec, View("habits", "list", "populated", "light"))
    texts = contract["expectations"]["texts"]
    assert texts[0] == "2 of 5 done today"
    assert "12-day streak · Daily" in texts and "No streak yet · Weekdays" in texts
    assert len(texts) == 1 + 2 * 5
    assert {"habits", "meditate", "weekdays"} <= set(contract["words"])
