"""``argus ui``: a local review page where a person compares renders and decides.

    security   the launch token, the request checks, safe paths, the CSP
    catalog    what the page lists: runs, views, their status and what waits on a person
    snapdiff   the render against its baseline or reference: diff image and changed boxes
    pages      the HTML (every string escaped)
    app        the Starlette application: pages, images, actions
    server     binding 127.0.0.1, printing the token, the running marker the report reads

Starlette and uvicorn come with the ``[ui]`` extra; nothing here is imported by other commands.
"""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.ui._app import Settings, create_app
    from argus.ui.server import serve

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "Settings": "argus.ui._app",
    "create_app": "argus.ui._app",
    "serve": "argus.ui.server",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "Settings",
    "create_app",
    "serve",
]
