/* GIF decoding through giflib (Debian's libgif7), composed as TensorFlow's
 * gif_io.cc composes it: a canvas of the largest frame's size, each frame
 * drawn over the previous one, transparent pixels kept from it (black in
 * the first frame), 3 channels (RGB).
 * Thread-safety: reentrant (no global state). */
#ifndef MINITF_RUNTIME_GIF_H_
#define MINITF_RUNTIME_GIF_H_

#include <stddef.h>
#include <stdint.h>

/* Returns where to write frames x height x width x channels bytes, or NULL
 * (it may write a reason into err). */
typedef uint8_t* (*mt_gif_alloc_fn)(void* arg, int frames, int width, int height, int channels,
                                    char* err, size_t errcap);

/* Decodes n bytes; expand = 0 decodes only the first frame. Returns 1 on
 * success, else 0 with TensorFlow's reason in err ("failed to slurp gif
 * file: ...", "gif file does not contain any image", ...). */
int mt_gif_decode(const uint8_t* data, size_t n, int expand, mt_gif_alloc_fn alloc, void* arg,
                  char* err, size_t errcap);

#endif
