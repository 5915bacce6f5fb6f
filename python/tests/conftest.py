"""Shared fixtures of the triad Python suite: the games and variants it covers."""

import pathlib

import pytest

import triad

REPO = pathlib.Path(__file__).resolve().parents[2]

# Every game, and the variants the command line's --game knows (the named
# ones, and board sizes for the games that take WxH).
VARIANTS = [
    "piratechnics",
    "piratechnics/8x8",
    "piratechnics/capacity2",
    "piratechnics/capacity4",
    "connect4",
    "connect4/6x5",
    "connect4/8x7",
    "connect4/4x4",
    "influence",
    "pirate",
    "pirate/6x6",
    "pirate/10x8",
]


@pytest.fixture(params=VARIANTS)
def game(request):
    return triad.load_game(request.param)
