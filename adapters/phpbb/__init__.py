"""phpBB adapter: page parsers (:mod:`.parse`) and the HTTP client (:mod:`.client`)."""
