"""The review tool of ``argus mcp``: after a merge, an agent asks for the advisory review of
the PR against every task its body closes (``argus review landed``), the body passed on the
command's standard input, every other word as ``--option=VALUE`` data."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult

from argus.agents._mcp_call import BadArgument, name_arg, refused, run_argus, text_arg, tool_result

MAX_BODY_CHARS = 1024 * 1024
REPO = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}/[A-Za-z0-9._-]{1,100}")


def landed_args(
    pr_title: str,
    pr_body: str,
    git_range: str,
    diff: str,
    pr: int,
    repo: str,
    merged_commit: str,
    ci: str,
) -> list[str]:
    """The argv of ``argus review landed`` for these arguments (BadArgument when one is not
    what the tool takes)."""
    if len(pr_body) > MAX_BODY_CHARS or "\0" in pr_body:
        raise BadArgument("pr_body: at most 1 MiB of text, no NUL")
    if bool(git_range) == bool(diff):
        raise BadArgument("give git_range (BASE..HEAD) or diff (a repository-relative file), one")
    args = ["review", "landed", "--json", "--pr-body-file=-"]
    args.append(f"--pr-title={text_arg(pr_title, 'pr_title', limit=500)}")
    if git_range:
        args.append(f"--git-range={text_arg(git_range, 'git_range', limit=300)}")
    else:
        args.append(f"--diff={text_arg(diff, 'diff')}")
    if isinstance(pr, bool) or not isinstance(pr, int) or pr < 0:
        raise BadArgument("pr: the PR's number (0: none)")
    if pr:
        args.append(f"--pr={pr}")
    if repo:
        if not REPO.fullmatch(repo):
            raise BadArgument(f"repo: {repo[:60]!r} is not OWNER/NAME")
        args.append(f"--repo={repo}")
    if merged_commit:
        args.append(f"--merged-commit={name_arg(merged_commit, 'merged_commit')}")
    if ci:
        args.append(f"--ci={name_arg(ci, 'ci')}")
    return args


def review_tools(server: MCPServer[Any], root: Path) -> None:
    @server.tool()
    def review_landed(
        pr_title: str,
        pr_body: str,
        git_range: str = "",
        diff: str = "",
        pr: int = 0,
        repo: str = "",
        merged_commit: str = "",
        ci: str = "",
    ) -> CallToolResult:
        """After a merge: review the PR against every task its body closes ("Closes #7",
        "Fixes ARGUS-385"), each found in argus/tasks/ID.toml or as a feature, and record it.
        Advice only: met / partial / unmet with a confidence, never a gate; a body that
        closes nothing is nothing to do. isError only for bad input."""
        try:
            args = landed_args(pr_title, pr_body, git_range, diff, pr, repo, merged_commit, ci)
        except BadArgument as exc:
            return refused(str(exc))
        return tool_result(run_argus(root, args, stdin=pr_body))
