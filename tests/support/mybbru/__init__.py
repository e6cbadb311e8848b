"""A MyBB.ru board on 127.0.0.1 (board) and its topic pages (pages)."""
