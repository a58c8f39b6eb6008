"""Shared test setup: offscreen Qt, no real network, isolated data folders."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")

import pytest


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A fresh data folder; OLLM_DATA_DIR points at it."""
    folder = tmp_path / "data"
    monkeypatch.setenv("OLLM_DATA_DIR", str(folder))
    return folder

