"""The place of the bishop puzzle (seed 001): ``GET /api/bishop``.

The endpoint will call the library's bishop solver (``solve_bishop``) with the
same parameters and JSON as the command line, as :mod:`.tours` does for tours.
Until the library has that solver this router has no route: ``/api/info``
then reports the feature ``bishop`` as unavailable and the page keeps its
bishop panel hidden (see ``static/index.html``, section ``panel-bishop``).
"""

from fastapi import APIRouter

router = APIRouter(prefix="/api", tags=["bishop"])
