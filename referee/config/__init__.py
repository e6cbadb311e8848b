"""``referee.toml``: reading, checking and the game's settings as values."""
