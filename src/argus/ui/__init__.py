"""``argus ui``: a local review page where a person compares renders and decides.

    security   the launch token, the request checks, safe paths, the CSP
    catalog    what the page lists: runs, views, their status and what waits on a person
    snapdiff   the render against its baseline or reference: diff image and changed boxes
    pages      the HTML (every string escaped)
    app        the Starlette application: pages, images, actions
    server     binding 127.0.0.1, printing the token, the running marker the report reads

Starlette and uvicorn come with the ``[ui]`` extra; nothing here is imported by other commands.
"""
