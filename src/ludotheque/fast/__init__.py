"""Batch simulators: many games at once in NumPy, proven equal to the engines by tests."""
