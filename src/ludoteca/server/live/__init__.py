"""The live sockets: one handshake for every socket (``handshake``), the table sockets of
this process (``connections``), the personal socket (``personal``), the tournament sockets
(``tournaments``), message rates, and the one way to end a session's or a user's
sockets in every process (``sessions``)."""
