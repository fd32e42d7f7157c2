#!/usr/bin/env bash
# The steps of the composite GitHub Action (action.yml at the repository root), one
# subcommand each, so they run (and are tested) the same on a laptop as on a runner:
#   install   pip install Argus (ARGUS_INSTALL: action | a requirement | none) and a Chromium
#   run       run ARGUS_COMMAND with JUnit, JSON and GitHub reporters into ARGUS_OUT, gather
#             the renders, diffs and reports there, and record the exit code as a step output;
#             with ARGUS_REVIEW_LANDED=true, run `argus review landed` on the merged PR
#             (ARGUS_PR_*: number, title, body, merge commit, head, commits) instead
#   finish    exit with the recorded code (after the artifact upload)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=${ARGUS_PYTHON:-python3}

install() {
  case "${ARGUS_INSTALL:-action}" in
    none) ;;
    action) "$python" -m pip install --quiet "${ARGUS_ACTION_PATH:-$here/..}" || exit 2 ;;
    *) "$python" -m pip install --quiet "$ARGUS_INSTALL" || exit 2 ;;
  esac
  [ "${ARGUS_REVIEW_LANDED:-false}" = true ] && return 0  # a review needs no browser
  "$here/ensure-browser.sh" "$python" >/dev/null || exit 2
}

commit_words() {
  # Author, author date and message of the last $2 commits of $1 (first parents), one record
  # each: what a rebase keeps of a commit it copies.
  git log --first-parent --no-merges -n "$2" --format='%an%x1f%ae%x1f%at%x1f%B%x1e' "$1" 2>/dev/null
}

rebased() {
  # Whether merge commit $1, with one parent, is the last of $2 copies of the PR's commits (a
  # rebase merge) rather than a squash: the PR's head (fetched when the checkout lacks it)
  # has the same last $2 commits, as a rebase leaves them.
  local merge=$1 commits=$2 head=${ARGUS_PR_HEAD:-}
  [[ "$head" =~ ^[0-9a-f]{40,64}$ ]] || head=""
  if [ -n "$head" ] && ! git cat-file -e "$head^{commit}" 2>/dev/null \
    && [[ "${ARGUS_PR_NUMBER:-}" =~ ^[0-9]+$ ]]; then
    GIT_TERMINAL_PROMPT=0 git fetch --quiet --no-tags origin "refs/pull/$ARGUS_PR_NUMBER/head" \
      >/dev/null 2>&1
  fi
  if [ -z "$head" ] || ! git cat-file -e "$head^{commit}" 2>/dev/null; then
    echo "argus-action: the PR's head is not in this checkout, so a rebase merge of its" \
      "$commits commits cannot be told from a squash: reviewing $merge alone (set" \
      "review-range to review more)" >&2
    return 1
  fi
  local ours theirs
  ours=$(commit_words "$merge" "$commits") && theirs=$(commit_words "$head" "$commits") \
    && [ -n "$ours" ] && [ "$ours" = "$theirs" ]
}

landed_range() {
  # What the merged PR brought to the base branch, and nothing others landed meanwhile
  # (base.sha..merge would hold their changes too, and a reviewer crediting them is the wrong
  # "met" this review must not give): a merge commit or a squash against its first parent, a
  # rebase merge's copies of the PR's commits from the commit before the first.
  local merge=$1 commits=${ARGUS_PR_COMMITS:-1} parents
  parents=$(git rev-list --parents -n 1 "$merge" 2>/dev/null | wc -w)
  if [ "$parents" -eq 2 ] && [[ "$commits" =~ ^[0-9]+$ ]] && [ "$commits" -gt 1 ] \
    && rebased "$merge" "$commits"; then
    echo "$merge~$commits..$merge"
  else
    echo "$merge^1..$merge"
  fi
}

review_landed() {
  # The PR's words are data: the body on standard input, the title and range as --opt=VALUE
  # (a title that starts with '-' is not an option), nothing through the shell.
  local range=${ARGUS_REVIEW_RANGE:-}
  if [ -z "$range" ]; then
    if [ -z "${ARGUS_PR_MERGE:-}" ]; then
      echo "argus-action: review-landed needs a merged pull_request event (or review-range)" >&2
      return 2
    fi
    range=$(landed_range "$ARGUS_PR_MERGE")
  fi
  local args=(review landed "--pr-title=${ARGUS_PR_TITLE:-}" --pr-body-file - "--git-range=$range")
  [ -z "${ARGUS_PR_NUMBER:-}" ] || args+=("--pr=$ARGUS_PR_NUMBER")
  [ -z "${ARGUS_REPOSITORY:-}" ] || args+=("--repo=$ARGUS_REPOSITORY")
  [ -z "${ARGUS_PR_MERGE:-}" ] || args+=("--merged-commit=$ARGUS_PR_MERGE")
  echo "argus-action: argus ${args[*]}"
  printf '%s' "${ARGUS_PR_BODY:-}" | "$python" -m argus "${args[@]}" > "$out/review-landed.txt"
  local code=$?
  cat "$out/review-landed.txt"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    { echo "### Acceptance-fidelity review (advice)"; echo '```'
      cat "$out/review-landed.txt"; echo '```'; } >> "$GITHUB_STEP_SUMMARY"
  fi
  return "$code"
}

with_reporters() {
  # argus gates/loop take --reporter; pytest takes --argus-reporter.
  local flag=--reporter
  case "$ARGUS_COMMAND" in
    pytest*|*" -m pytest"*) flag=--argus-reporter ;;
  esac
  printf '%s %s junit=%q %s json=%q %s github' "$ARGUS_COMMAND" \
    "$flag" "$out/junit.xml" "$flag" "$out/summary.json" "$flag"
}

gather() {
  # Renders, diffs and reports the command left: the loop's run directories, the plugin's
  # output directory, snapshot diffs. Paths keep their layout under $out/files/.
  local found
  found=$(find . -path "./$out" -prune -o \( -path '*/.argus-runs/*' -o -path './.argus/pytest/*' \) \
    -type f \( -name '*.png' -o -name 'gate-result.json' -o -name 'verdict.json' \
    -o -name 'report-*.html' \) -print 2>/dev/null)
  [ -n "$found" ] || return 0
  while IFS= read -r file; do
    mkdir -p "$out/files/$(dirname "${file#./}")"
    cp "$file" "$out/files/${file#./}"
  done <<< "$found"
}

run() {
  out=${ARGUS_OUT:-argus-ci}
  mkdir -p "$out"
  local command code
  if [ "${ARGUS_REVIEW_LANDED:-false}" = true ]; then
    review_landed
    code=$?
    [ -z "${GITHUB_OUTPUT:-}" ] || echo "exit-code=$code" >> "$GITHUB_OUTPUT"
    echo "argus-action: exit $code"
    return 0
  fi
  [ -n "${ARGUS_COMMAND:-}" ] || { echo "argus-action: the command input is empty" >&2; exit 2; }
  command=$(with_reporters)
  echo "argus-action: $command"
  bash -c "$command"
  code=$?
  if [ -n "${ARGUS_REPORT_FEATURE:-}" ]; then
    argus report --feature "$ARGUS_REPORT_FEATURE" --out "$out/report.html" \
      || echo "argus-action: no loop report for $ARGUS_REPORT_FEATURE" >&2
  fi
  gather
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    { echo "exit-code=$code"; echo "summary=$out/summary.json"; } >> "$GITHUB_OUTPUT"
  fi
  echo "argus-action: exit $code"
  return 0
}

finish() {
  exit "${ARGUS_EXIT:-2}"
}

case "${1:-}" in
  install) install ;;
  run) run ;;
  finish) finish ;;
  *) echo "usage: $0 install|run|finish" >&2; exit 2 ;;
esac
