"""Benchmarks that print figures; run each as a module from the repository root (`python -m bench.NAME`)."""
