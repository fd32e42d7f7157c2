"""What a run shows on a terminal: live progress while it runs, one summary when it ends."""
