"""Pipelines shipped inside the package (package data); see `build.py`."""
