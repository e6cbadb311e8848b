"""phpBB 3.3 boards: the live one on 127.0.0.1 (board), its game that grows with a clock
(game_board), the respx boards that serve the real fixture pages to the sync tests
(respx_board, with phpBB's folder export in export) and take replies and PMs
(posting_board)."""
