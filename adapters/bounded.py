"""Reading an answer of the forum within a cap on its decoded size (issue 26).

httpx inflates a gzip or deflate answer whole: a page of a few kilobytes that unfolds into
gigabytes (a compressed bomb, or a broken board that streams forever) would grow memory
without bound. So the client streams every answer and inflates it here itself, piece by
piece, each piece no longer than the room left under the cap; the reading stops as soon as
the cap is passed, with a Russian error that names the request.
"""

from __future__ import annotations

import zlib

import httpx

from referee.core.errors import NetworkError

MIB = 1 << 20
DEFAULT_MAX_ANSWER = 20 * MIB
"""The cap when the config says nothing: ``[forum] max_answer_mib = 20`` (a topic page of a
long phpBB game is a few hundred kilobytes)."""

ACCEPT_ENCODING = "gzip, deflate"
"""What the client asks for: the encodings it can inflate within the cap itself."""


class _Inflater:
    """One answer's decompressor: gzip, zlib-wrapped deflate or raw deflate (servers send
    both under «deflate»), fed piece by piece with a bound on what comes out."""

    def __init__(self, coding: str) -> None:
        self.coding = coding
        self.first = True
        wbits = 16 + zlib.MAX_WBITS if coding == "gzip" else zlib.MAX_WBITS
        self.d = zlib.decompressobj(wbits)

    def feed(self, data: bytes, room: int) -> bytes:
        """The decoded bytes of ``data``, at most ``room`` + 1 of them (enough to know the
        cap is passed)."""
        try:
            out = self.d.decompress(data, room + 1)
        except zlib.error:
            if not (self.first and self.coding == "deflate"):
                raise
            self.d = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate, no zlib header
            out = self.d.decompress(data, room + 1)
        self.first = False
        return out


def read_bounded(client: httpx.Client, request: httpx.Request, cap: int,
                 shown: str) -> httpx.Response:
    """Send ``request`` and read its answer, decoded, stopping past ``cap`` bytes with a
    :class:`NetworkError` naming ``shown``. A broken compression is an
    :class:`httpx.DecodingError`, as httpx itself would raise (the client asks again)."""
    response = client.send(request, stream=True)
    try:
        codings = [c.strip().lower() for c in response.headers.get(
            "content-encoding", "").split(",") if c.strip().lower() not in ("", "identity")]
        if len(codings) > 1 or (codings and codings[0] not in ("gzip", "deflate", "x-gzip")):
            raise httpx.DecodingError(f"unsupported Content-Encoding {codings}",
                                      request=request)
        inflater = _Inflater("gzip" if codings and codings[0] != "deflate" else "deflate") \
            if codings else None
        out = bytearray()

        def take(piece: bytes) -> None:
            out.extend(piece)
            if len(out) > cap:
                raise too_big(shown, cap)

        try:
            for chunk in response.iter_raw():
                if inflater is None:
                    take(chunk)
                    continue
                take(inflater.feed(chunk, cap - len(out)))
                while inflater.d.unconsumed_tail:  # held back by the bound: fed again
                    take(inflater.feed(inflater.d.unconsumed_tail, cap - len(out)))
            if inflater is not None:
                take(inflater.d.flush())
        except zlib.error as e:
            raise httpx.DecodingError(f"{codings[0]}: {e}", request=request) from None
    finally:
        response.close()
    headers = [(k, v) for k, v in response.headers.multi_items()
               if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")]
    headers.append(("Content-Length", str(len(out))))
    return httpx.Response(response.status_code, headers=headers, content=bytes(out),
                          request=request, extensions={
                              k: v for k, v in response.extensions.items()
                              if k in ("http_version", "reason_phrase")})


def too_big(shown: str, cap: int) -> NetworkError:
    mib = cap / MIB
    size = f"{mib:g} МиБ" if mib >= 1 else f"{cap} байт"
    return NetworkError(
        f"форум прислал ответ больше {size} (запрос: {shown}); referee перестал его читать, "
        "чтобы не занять всю память",
        "если это и правда страница темы или ЛС, увеличьте [forum] max_answer_mib в "
        "referee.toml; если нет — проверьте [forum] url (он должен вести на тему игры)",
    )


__all__ = ["ACCEPT_ENCODING", "DEFAULT_MAX_ANSWER", "MIB", "read_bounded", "too_big"]
