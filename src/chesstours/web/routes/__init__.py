"""The web api's routes, one module per part of the page.

``tours`` serves tours (as JSON or pictures), counts and existence; ``bishop``
the bishop puzzle; ``trace`` a search move by move; ``check`` a tour of your own. :data:`ROUTERS` lists them
all for the app, which reports a router with routes as an available feature
in ``/api/info``.
"""

from . import bishop, check, tours, trace

#: (feature name, router) for every part of the api.
ROUTERS = [("tours", tours.router), ("bishop", bishop.router), ("trace", trace.router),
           ("check", check.router)]
