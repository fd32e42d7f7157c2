"""Benchmarks: Argus measured side by side with the tools users would otherwise pick."""
