"""pytest fixtures: a booted guest per test, on its own copies of the disks."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.guest import Guest


@pytest.fixture
def guest(tmp_path: Path):
    g = Guest(tmp_path)
    g.boot()
    yield g
    g.close()
