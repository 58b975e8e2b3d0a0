/* JPEG through libjpeg-turbo (Debian's libjpeg62-turbo), driven as
 * TensorFlow's jpeg_mem.cc drives it, so DecodeJpeg / EncodeJpeg /
 * DecodeAndCropJpeg / ExtractJpegShape give TensorFlow's pixels and bytes.
 *
 * The memory source behaves as TensorFlow's: data ending early suspends the
 * decoder (a decode error) unless try_recover_truncated, which inserts one
 * fake EOI marker; missing rows are then filled as TensorFlow fills them.
 * libjpeg's fatal errors are caught (setjmp) and become return codes; its
 * messages are not printed.
 * Thread-safety: every function is reentrant (no global state).
 */
#ifndef MINITF_RUNTIME_JPEG_H_
#define MINITF_RUNTIME_JPEG_H_

#include <stddef.h>
#include <stdint.h>

typedef struct mt_jpeg_decode_flags {
  int components;            /* 0 (as stored, CMYK -> RGB), 1 or 3; 4 = RGB + opaque alpha */
  int ratio;                 /* 1, 2, 4 or 8 */
  int fancy_upscaling;       /* libjpeg's do_fancy_upsampling */
  int try_recover_truncated; /* fill rows past the end of the data */
  float min_acceptable_fraction;
  int dct_accurate;          /* 1: JDCT_ISLOW, 0: JDCT_IFAST (TensorFlow's default) */
  int crop;                  /* decode only the window below */
  int crop_x, crop_y, crop_width, crop_height;
} mt_jpeg_decode_flags;

/* Returns where to write height rows of width * components bytes, or NULL. */
typedef uint8_t* (*mt_jpeg_alloc_fn)(void* arg, int width, int height, int components);

/* Decodes n bytes; returns 1 when the image (or enough of it) was decoded,
 * 0 for invalid data, a bad crop window, or a failed allocation. */
int mt_jpeg_decode(const uint8_t* data, size_t n, const mt_jpeg_decode_flags* flags,
                   mt_jpeg_alloc_fn alloc, void* arg);

/* Width, height and output components of a JPEG from its header; 0 when the
 * header does not decode. */
int mt_jpeg_info(const uint8_t* data, size_t n, int* width, int* height, int* components);

typedef struct mt_jpeg_encode_flags {
  int components; /* 1 (grayscale) or 3 (RGB) */
  int quality;    /* 0..100 */
  int progressive, optimize_size, chroma_downsampling;
  int density_unit; /* 1 = in, 2 = cm */
  int x_density, y_density;
  const char* xmp; /* NULL or xmp_len bytes written in an APP1 marker */
  size_t xmp_len;
} mt_jpeg_encode_flags;

/* Encodes a width x height image (rows width * components bytes apart). On
 * success returns 1 and sets *out to a malloc'd buffer of *out_len bytes
 * (the caller frees it); 0 on failure (bad size, out of memory). */
int mt_jpeg_encode(const uint8_t* pixels, int width, int height,
                   const mt_jpeg_encode_flags* flags, uint8_t** out, size_t* out_len);

#endif
