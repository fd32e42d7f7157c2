"""The referee (seed 001): captured evidence merged into one verdict with a next action.
See docs/referee.md."""
