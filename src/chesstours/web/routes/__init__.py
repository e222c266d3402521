"""The web api's routes, one module per part of the page.

``tours`` serves tours, counts and existence; ``bishop`` and ``trace`` are the
places for the bishop puzzle and the backtracking trace (empty until the
library provides them). :data:`ROUTERS` lists them all for the app.
"""

from . import bishop, tours, trace

#: (feature name, router) for every part of the api.
ROUTERS = [("tours", tours.router), ("bishop", bishop.router), ("trace", trace.router)]
