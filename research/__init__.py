"""One-off research scripts on the bots (see research/README.md).

A package so that its scripts import each other the same way whether run from the
repository root (``python -m research.decision_loss ...``) or imported by a test.
"""
