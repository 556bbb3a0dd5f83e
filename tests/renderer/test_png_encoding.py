"""A full-colour image is written as an unfiltered PNG with exactly Pillow's pixels."""

from __future__ import annotations

import io
import random

import pytest
import tigris_sample_views as samples
from PIL import Image, ImageDraw

from renderer import common, tigris


def decoded(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()  # Pillow checks every chunk's CRC while reading
    return image


def pillows(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


def noise(mode: str, size: tuple[int, int], seed: int) -> Image.Image:
    rng = random.Random(seed)
    return Image.frombytes(mode, size, rng.randbytes(size[0] * size[1] * len(mode)))


def drawn(mode: str) -> Image.Image:
    image = Image.new(mode, (333, 121), (20, 30, 40, 0) if mode == "RGBA" else (20, 30, 40))
    d = ImageDraw.Draw(image)
    d.ellipse((10, 10, 200, 110), fill=(200, 60, 30, 128) if mode == "RGBA" else (200, 60, 30))
    d.text((120, 40), "Ziggurat 42", fill=(255, 255, 255, 255) if mode == "RGBA" else "white")
    return image


@pytest.mark.parametrize(
    "image",
    [
        noise("RGB", (97, 53), 1),
        noise("RGBA", (64, 31), 2),
        noise("RGB", (1, 1), 3),
        drawn("RGB"),
        drawn("RGBA"),
        tigris.draw_private(samples.private_view(0), samples.PLAYERS[0]),
    ],
    ids=["rgb-noise", "rgba-noise", "one-pixel", "rgb-drawn", "rgba-drawn", "tigris-hand"],
)
def test_unfiltered_png_has_pillows_pixels(image: Image.Image) -> None:
    ours = decoded(common.encode_png(image))
    theirs = decoded(pillows(image))
    assert ours.mode == theirs.mode == image.mode
    assert ours.size == image.size
    assert ours.tobytes() == theirs.tobytes() == image.tobytes()


def test_a_tigris_hand_is_no_bigger_unfiltered() -> None:
    image = tigris.draw_private(samples.private_view(0), samples.PLAYERS[0])
    assert len(common.encode_png(image)) <= len(pillows(image))


def test_palette_and_other_modes_still_go_through_pillow() -> None:
    grey = Image.linear_gradient("L")
    assert decoded(common.encode_png(grey)).tobytes() == grey.tobytes()
    board = drawn("RGB")
    palette = board.quantize(colors=16)
    mapped = decoded(common.encode_png(board, palette))
    assert mapped.mode == "P"
    assert (
        mapped.convert("RGB").tobytes()
        == board.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB").tobytes()
    )
