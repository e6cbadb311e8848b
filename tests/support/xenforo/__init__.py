"""A XenForo 2 board on 127.0.0.1 (board), its thread pages (pages) and conversations."""
