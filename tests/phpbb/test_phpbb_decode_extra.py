"""decode_page: a charset label that names a codec but not a text encoding."""

from adapters.phpbb.page import decode_page


def test_a_non_text_codec_label_falls_back_to_utf8() -> None:
    page = '<html><head><meta charset="uu"></head><body>Привет</body></html>'.encode()
    assert "Привет" in decode_page(page)
    assert "Привет" in decode_page(page, "text/html; charset=base64")
