"""Player tournaments run by the server, from sign-up to podium: settings, standings, the
service that pairs each round and opens its tables, and its API (the pure pairing and
standings are ``ludoteca.tournaments``)."""
