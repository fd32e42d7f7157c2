"""axe-core on the live page at sensing time, with the axe build axe-playwright-python ships.

The run and the reduction happen in the page and come back as one JSON string: violations and
incomplete results keep rule id, impact, help and each node's target; passes are a count.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from playwright.async_api import Page

from argus.config import AxeConfig

RUN_JS = """async (options) => {
  const results = await axe.run(document, options);
  const reduce = (items) => items.map((item) => ({
    id: item.id,
    impact: item.impact,
    help: item.help,
    help_url: item.helpUrl,
    tags: item.tags,
    nodes: item.nodes.map((node) => ({
      target: node.target,
      impact: node.impact,
      summary: node.failureSummary || "",
    })),
  }));
  return JSON.stringify({
    engine: results.testEngine,
    violations: reduce(results.violations),
    incomplete: reduce(results.incomplete),
    passes: results.passes.length,
    inapplicable: results.inapplicable.length,
  });
}"""


@cache
def axe_source() -> str:
    from axe_playwright_python.async_playwright import Axe

    source: str = Axe().axe_script
    return source


def axe_options(config: AxeConfig) -> dict[str, Any]:
    options: dict[str, Any] = {"resultTypes": ["violations", "incomplete"]}
    if config.tags:
        options["runOnly"] = {"type": "tag", "values": list(config.tags)}
    if config.disable_rules:
        options["rules"] = {rule: {"enabled": False} for rule in config.disable_rules}
    return options


async def run_axe(page: Page, config: AxeConfig) -> dict[str, Any]:
    await page.evaluate(axe_source())
    raw = await page.evaluate(RUN_JS, axe_options(config))
    results: dict[str, Any] = json.loads(raw)
    results["options"] = {"tags": list(config.tags), "disable_rules": list(config.disable_rules)}
    return results
