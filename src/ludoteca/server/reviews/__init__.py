"""Post-game reviews: asked for by players, queued in the database, computed in worker
processes of their own and kept with the table."""
