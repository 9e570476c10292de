"""The invitation `companion serve` prints: the join link carries the code, and the QR code drawn in text reads
back (with OpenCV's QR detector) as that link."""

from __future__ import annotations

import numpy as np

from web.invite import join_link, terminal_qr

# print_ascii(invert=True) draws two rows of modules a character: light is a block, dark a space
_ROWS = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0), "\xa0": (0, 0)}


def _image(text: str) -> np.ndarray:
    lines = [line for line in text.splitlines() if line]
    width = max(len(line) for line in lines)
    rows: list[list[int]] = []
    for line in lines:
        top, bottom = [], []
        for ch in line.ljust(width):
            up, down = _ROWS[ch]
            top.append(up)
            bottom.append(down)
        rows += [top, bottom]
    light = np.array(rows, dtype=np.uint8) * 255
    big = np.kron(light, np.ones((10, 10), dtype=np.uint8))
    return np.pad(big, 40, constant_values=255)


def test_the_join_link_carries_the_code() -> None:
    assert join_link("http://companion.local:8080/", "TABLE7") == "http://companion.local:8080/join?code=TABLE7"


def test_the_terminal_qr_code_reads_back_as_the_link() -> None:
    import cv2

    link = join_link("http://192.168.1.20:8080/", "K3Y9PQ")
    text = terminal_qr(link)
    assert set(text) <= set(_ROWS) | {"\n"}
    found, _, _ = cv2.QRCodeDetector().detectAndDecode(_image(text))
    assert found == link
