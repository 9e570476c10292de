"""The invitation to the table in a terminal: the join link (with its code) and its QR code drawn in text, for
`companion serve` to print at the start, so that the host's phone camera opens the page without typing the code."""

from __future__ import annotations

import io


def join_link(base_url: str, code: str) -> str:
    """The link a phone opens to join: the page's address with the join code."""
    return f"{base_url.rstrip('/')}/join?code={code}"


def terminal_qr(link: str) -> str:
    """The link's QR code in text (half-block characters, dark on a light terminal border)."""
    import qrcode  # loaded here: the companion's start on a Pi pays for it only when it prints the code

    code = qrcode.QRCode(border=2)
    code.add_data(link)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()
