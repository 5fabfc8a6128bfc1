"""The service's own routes: the rules pages' worked examples, and the health check an
operator (or a load balancer) asks."""

from __future__ import annotations

import os
from typing import Any

from fastapi import APIRouter

from ..context import Server
from ..examples import examples_view
from ..schemas import ExamplesView, answers

router = APIRouter()


@router.get("/api/examples", response_model=None, responses=answers(ExamplesView))
async def examples() -> dict[str, Any]:
    """The rules pages' worked examples, played out by the core."""
    return examples_view()


@router.get("/api/health", include_in_schema=False)
async def health(server: Server) -> dict[str, Any]:
    # live: whether table updates reach every server process (Redis up, or alone);
    # process: which worker answered (an operator's check that each one is live)
    hub = server.hub
    return {
        "ok": True,
        "games": server.store.count_games(),
        "live": hub.live,
        "process": os.getpid(),
    }
