"""chesstours on the web: a JSON api and a page, served by ``chesstours serve``.

The api (:mod:`.routes`) answers the command line's questions with the
command line's JSON; the page (``static/``) draws and animates tours, counts
them, explains why none exists, and lets a visitor play. Nothing here
searches: every answer comes from the library (:mod:`.service`), under the
limits of :mod:`.limits`.

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app(warm_up=False))
>>> client.get("/api/tour", params={"board": "5x5", "start": "a1"}).json()["path"][:3]
['a1', 'b3', 'a5']
"""

from .app import create_app
from .limits import Limits
from .server import running_server, serve

__all__ = ["Limits", "create_app", "running_server", "serve"]
