"""Fixtures of the archive tests (archive_support.py)."""

from archive_support import demo_folders, private_finished, private_running  # noqa: F401
