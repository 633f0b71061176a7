"""Benchmarks for the JUMBULAYA rules engine (``make bench``).

``python -m bench`` prints one JSON object to stdout; progress notes go to
stderr.  Everything is seeded, and every figure comes from the same run.
"""
