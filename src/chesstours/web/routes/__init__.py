"""The web api's routes, one module per part of the page.

``tours`` serves tours (as JSON or pictures), counts and existence; ``bishop``
the bishop puzzle; ``trace`` a search move by move; ``check`` a tour of your own; ``sample`` random tours and the statistics of all tours. :data:`ROUTERS` lists them
all for the app, which reports a router with routes as an available feature
in ``/api/info``.
"""

from . import bishop, check, sample, tours, trace

#: (feature name, router) for every part of the api.
ROUTERS = [("tours", tours.router), ("bishop", bishop.router), ("trace", trace.router),
           ("check", check.router), ("sample", sample.router)]
