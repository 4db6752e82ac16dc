"""Per-game RL modules: each gives ``UNORDERED`` (set-like move fields), ``actions(seats,
options)`` (the vocabulary, enumerated from component data) and ``Observation`` (the
view encoder with its documented layout)."""
