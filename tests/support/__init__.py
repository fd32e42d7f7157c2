"""Test helpers shared by every test package (see habits.py and fixtures.py)."""
