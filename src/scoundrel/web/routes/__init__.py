"""The server's routes, one router per area: the pages, games, hints, analyses, players and
the service's own (examples, health). The co-op tables' routes are in :mod:`..coop`, moving
records between devices in :mod:`..identity`."""

from __future__ import annotations

from . import analysis, games, hints, offline, pages, players, service

ROUTERS = (
    pages.router,
    games.router,
    hints.router,
    analysis.router,
    players.router,
    service.router,
    offline.router,
)
