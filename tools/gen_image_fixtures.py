"""Writes the small image files tests/fixtures/images/* that the codec tests decode
(developer tool; needs Pillow):

    python3 tools/gen_image_fixtures.py   (any Python with NumPy and Pillow)

Each file exercises one decoder path: PNG colour types and bit depths (palette with and
without tRNS, 1-bit gray, gray+alpha, 16-bit), JPEG baseline / progressive / grayscale /
CMYK (Adobe) / 4:4:4, an animated GIF whose frames differ in size, offset and
transparency, and 8/24/32-bit BMPs (bottom-up and top-down).
"""
import os

import numpy as np
from PIL import Image

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures",
                   "images")


def pattern(h, w, c, seed):
    """Smooth gradients plus noise (so JPEG has something to do)."""
    rs = np.random.RandomState(seed)
    y, x = np.mgrid[0:h, 0:w]
    base = np.stack([(x * 255 // max(w - 1, 1)), (y * 255 // max(h - 1, 1)),
                     ((x + y) * 127 // max(h + w - 2, 1))] + [255 - x * 8 % 256] * (c - 3),
                    -1)[..., :c] if c >= 3 else (x * 13 + y * 7)[..., None] % 256
    return np.clip(base + rs.randint(-20, 21, base.shape), 0, 255).astype(np.uint8)


def main():
    os.makedirs(OUT, exist_ok=True)
    p = lambda n: os.path.join(OUT, n)  # noqa: E731
    rgb = pattern(12, 16, 3, 0)
    Image.fromarray(rgb).save(p("rgb.png"))
    Image.fromarray(pattern(12, 16, 4, 1), "RGBA").save(p("rgba.png"))
    Image.fromarray(pattern(12, 16, 1, 2)[..., 0], "L").save(p("gray.png"))
    Image.fromarray(np.dstack([pattern(12, 16, 1, 3)[..., 0], pattern(12, 16, 1, 4)[..., 0]]),
                    "LA").save(p("gray_alpha.png"))
    pal = Image.fromarray(rgb).quantize(colors=16)
    pal.save(p("palette.png"))
    pal.save(p("palette_trns.png"), transparency=3)
    Image.fromarray((pattern(12, 16, 1, 5)[..., 0] > 128)).convert("1").save(p("gray1.png"))
    g16 = (pattern(12, 16, 1, 6)[..., 0].astype(np.uint16) * 257 + 3).astype(np.uint16)
    Image.fromarray(g16).save(p("gray16.png"))
    Image.fromarray(rgb).save(p("rgb.jpg"), quality=90)
    Image.fromarray(rgb).save(p("rgb444.jpg"), quality=85, subsampling=0)
    Image.fromarray(rgb).save(p("progressive.jpg"), quality=80, progressive=True)
    Image.fromarray(pattern(12, 16, 1, 7)[..., 0], "L").save(p("gray.jpg"), quality=90)
    Image.fromarray(pattern(12, 16, 4, 8), "CMYK").save(p("cmyk.jpg"), quality=90)
    big = pattern(40, 56, 3, 9)
    Image.fromarray(big).save(p("big.jpg"), quality=92)
    frames = []
    for k in range(3):
        f = Image.fromarray(pattern(10, 14, 3, 10 + k)).quantize(colors=8)
        frames.append(f)
    frames[0].save(p("anim.gif"), save_all=True, append_images=frames[1:], duration=50,
                   loop=0, transparency=2, disposal=1)
    Image.fromarray(pattern(10, 14, 3, 13)).quantize(colors=8).save(p("still.gif"))
    Image.fromarray(pattern(7, 9, 3, 14)).save(p("rgb24.bmp"))
    Image.fromarray(pattern(7, 9, 4, 15), "RGBA").save(p("rgba32.bmp"))
    with open(p("rgb24.bmp"), "rb") as f:  # the same pixels stored top-down
        b = bytearray(f.read())
    h = int.from_bytes(b[22:26], "little", signed=True)
    off = int.from_bytes(b[10:14], "little")
    row = (9 * 3 + 3) // 4 * 4
    rows = [bytes(b[off + i * row: off + (i + 1) * row]) for i in range(h)]
    b[22:26] = (-h).to_bytes(4, "little", signed=True)
    b[off:] = b"".join(reversed(rows))
    with open(p("rgb24_topdown.bmp"), "wb") as f:
        f.write(bytes(b))
    print("wrote", sorted(os.listdir(OUT)))


if __name__ == "__main__":
    main()
