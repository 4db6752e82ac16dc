"""The HTTP edge: connection bounds, the request guard, security headers, the browser
client's files, the API's own pages and OpenAPI description, and the dependencies every
feature's routes share (``http/deps.py``)."""
