"""phpBB 3.3 boards: the live one on 127.0.0.1 (board), its game that grows with a clock
(game_board) and the respx board that takes replies and PMs (posting_board)."""
