"""Shared pytest fixtures: paths of the TensorFlow-written fixtures."""
import os

import pytest

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


@pytest.fixture
def fixtures_dir():
    return FIXTURES
