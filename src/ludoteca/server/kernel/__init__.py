"""The kernel every feature stands on: settings, the database and its rows, the hub between
processes, who is signed in (identity), worker processes, time, bounds on client input,
the wire protocol and the errors. It imports no feature."""
