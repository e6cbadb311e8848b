"""SMF 2.1 boards on 127.0.0.1: the shared site and the real saved pages (site), the board
that renders its own posts and PMs (live)."""
