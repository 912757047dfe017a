"""pytest fixtures: a booted guest per test, on its own copies of the disks."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from guest import Guest  # noqa: E402


@pytest.fixture
def guest(tmp_path: Path):
    g = Guest(tmp_path)
    g.boot()
    yield g
    g.close()
