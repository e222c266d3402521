"""The place of the backtracking trace: ``GET /api/trace``.

The endpoint will return the moves and step-backs of a backtracking search,
as the library's search trace records them, for the page to step through move
by move. Until the library records a trace this router has no route:
``/api/info`` then reports the feature ``trace`` as unavailable and the page
keeps its trace panel hidden (see ``static/index.html``, section ``panel-trace``).
"""

from fastapi import APIRouter

router = APIRouter(prefix="/api", tags=["trace"])
