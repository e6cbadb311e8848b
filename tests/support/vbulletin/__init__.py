"""A vBulletin 4 board on 127.0.0.1 (board) and its windows-1251 pages (pages)."""
