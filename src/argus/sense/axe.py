"""axe-core on the live page at sensing time, with the axe build axe-playwright-python ships.

axe runs in an isolated world of the page's main frame (its own globals; the same DOM), so the
page never sees it. Its 570 kB source goes over Argus's own CDP session and is evaluated
while the page settles (``load_axe``: it only defines axe, during what is waiting time);
after the screenshots, ``run_axe`` runs it. The run and the reduction happen in the page and
come back as one JSON string: violations and incomplete results keep rule id, impact, help
and each node's target; passes are a count.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import suppress
from dataclasses import dataclass
from functools import cache
from typing import Any

from playwright.async_api import CDPSession
from playwright.async_api import Error as PlaywrightError

from argus.config import AxeConfig
from argus.sense.probe import ProbeBudget, sampler_script
from argus.sense.world import isolated_world, isolated_world_request, raise_on_exception

WORLD = "argus-axe"
# axe checks the page, or what the probe's sampler keeps of a huge one (the same sample.js, so
# the same elements), within the configured include/exclude selectors.
RUN_JS = """async (options, scope, budget, makeSampler) => {
  // A huge page: what the probe's sampler drops is taken out of the document while axe runs
  // (each run of dropped siblings moved out behind a placeholder comment and put back after,
  // the same nodes in the same places), because axe's own exclude list costs elements x
  // exclusions. The render and the probe were taken before.
  let parked = [], sampled = null;
  if (budget) {
    // The probe's order: each element's children are judged together, then visited in turn.
    const sampler = makeSampler(budget);
    const stack = [document.documentElement];
    while (stack.length) {
      const el = stack.pop();
      if (el.tagName === "svg") continue;
      const kids = Array.from(el.children).filter(
        (kid) => sampler.acceptNode(kid) === NodeFilter.FILTER_ACCEPT);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
    sampled = sampler.stats();
    // Consecutive dropped siblings (most of a long list) leave as one range: a few DOM
    // mutations instead of one per row.
    const runs = [];
    for (const node of sampler.droppedRoots) {
      const run = runs[runs.length - 1];
      if (run && run[1].nextElementSibling === node) run[1] = node;
      else runs.push([node, node]);
    }
    parked = runs.map(([first, last]) => {
      const range = document.createRange();
      range.setStartBefore(first);
      range.setEndAfter(last);
      const mark = document.createComment("argus-axe-sampled-out");
      const fragment = range.extractContents();
      range.insertNode(mark);
      return [mark, fragment];
    });
  }
  let results;
  try {
    const context = scope.include.length || scope.exclude.length
      ? { include: scope.include.length ? scope.include : [document.documentElement],
          exclude: scope.exclude }
      : document;
    results = await axe.run(context, options);
  } finally {
    for (const [mark, fragment] of parked) mark.replaceWith(fragment);
  }
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
    sampled,
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
    rules: dict[str, dict[str, bool]] = {
        rule: {"enabled": True} for rule in config.best_practice_rules
    }
    rules.update({rule: {"enabled": False} for rule in config.disable_rules})
    if rules:
        # With runOnly by tag, a rule enabled here runs as well (axe's best-practice extras).
        options["rules"] = rules
    return options


@dataclass(frozen=True)
class LoadedAxe:
    """axe defined in the isolated world ``context_id`` of the current document."""

    context_id: int


async def load_axe(session: CDPSession) -> LoadedAxe:
    """Define axe in a fresh isolated world of the main frame (it does not run yet)."""
    context_id = await isolated_world(session, WORLD)
    raise_on_exception(
        await session.send("Runtime.evaluate", load_request(context_id)), "loading axe-core"
    )
    return LoadedAxe(context_id)


async def run_axe(
    session: CDPSession,
    loaded: LoadedAxe,
    config: AxeConfig,
    budget: ProbeBudget | None = None,
) -> dict[str, Any]:
    """axe's findings, reduced; past ``config.timeout`` seconds the run is stopped and the
    result says ``timed_out`` (the axe gate makes that an error, never a pass)."""
    sending = session.send("Runtime.evaluate", run_request(loaded.context_id, config, budget))
    try:
        answer = await asyncio.wait_for(sending, timeout=config.timeout)
    except TimeoutError:
        # Stop axe's work in the page so the next view does not wait behind it.
        with suppress(PlaywrightError):
            await session.send("Runtime.terminateExecution")
        return timed_out(config)
    return read_results(answer, config)


# The CDP requests and the answer's reading, shared with the sync capture of the pytest plugin.
def world_request(frame_id: str) -> dict[str, Any]:
    """Page.createIsolatedWorld parameters for axe's world in ``frame_id``."""
    return isolated_world_request(frame_id, WORLD)


def load_request(context_id: int) -> dict[str, Any]:
    """Runtime.evaluate parameters that define axe in the world ``context_id``."""
    return {"expression": axe_source(), "contextId": context_id}


def run_request(
    context_id: int, config: AxeConfig, budget: ProbeBudget | None = None
) -> dict[str, Any]:
    """Runtime.evaluate parameters that run axe (defined in ``context_id``) once, within the
    configured include/exclude and, for a huge page, on the probe's sample."""
    scope = {"include": list(config.include), "exclude": list(config.exclude)}
    arguments = [axe_options(config), scope, budget.to_js() if budget else None]
    return {
        "expression": f"({RUN_JS})(...{json.dumps(arguments)}, {sampler_script()})",
        "contextId": context_id,
        "awaitPromise": True,
        "returnByValue": True,
    }


def _options(config: AxeConfig) -> dict[str, Any]:
    return {
        "tags": list(config.tags),
        "best_practice_rules": list(config.best_practice_rules),
        "disable_rules": list(config.disable_rules),
        "include": list(config.include),
        "exclude": list(config.exclude),
    }


def timed_out(config: AxeConfig) -> dict[str, Any]:
    """What axe.json holds for a run stopped at ``config.timeout``."""
    return {
        "timed_out": True,
        "timeout_s": config.timeout,
        "options": _options(config),
        "violations": [],
        "incomplete": [],
    }


def read_results(answer: dict[str, Any], config: AxeConfig) -> dict[str, Any]:
    """axe's reduced results from a run's answer; SensorError when it threw in the page."""
    raise_on_exception(answer, "running axe-core")
    results: dict[str, Any] = json.loads(answer["result"]["value"])
    if results.get("sampled") is None:
        results.pop("sampled", None)
    results["options"] = _options(config)
    return results
