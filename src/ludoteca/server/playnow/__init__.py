"""Play now: the queue in the database and the pure pairing by rating band (``pools``)."""
