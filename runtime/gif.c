/* GIF decoding over giflib (see gif.h). */
#include "runtime/gif.h"

#include <gif_lib.h>
#include <stdio.h>
#include <string.h>

typedef struct gif_source {
  const uint8_t* p;
  size_t left;
} gif_source;

static int gif_read(GifFileType* gif, GifByteType* buf, int size) {
  gif_source* s = gif->UserData;
  if (!s || size < 0) return 0;
  size_t n = (size_t)size < s->left ? (size_t)size : s->left;
  memcpy(buf, s->p, n);
  s->p += n;
  s->left -= n;
  return (int)n;
}

static const char* gif_error(int code) {
  const char* s = GifErrorString(code);
  return s ? s : "Unknown error";
}

/* Draws frame k over the canvas (already holding frame k-1, or zeros). */
static int draw_frame(GifFileType* gif, int k, uint8_t* dst, int width, int height, char* err,
                      size_t cap) {
  const SavedImage* im = &gif->SavedImages[k];
  const GifImageDesc* d = &im->ImageDesc;
  GraphicsControlBlock gcb;
  gcb.TransparentColor = NO_TRANSPARENT_COLOR;
  DGifSavedExtensionToGCB(gif, k, &gcb);
  const ColorMapObject* map = d->ColorMap ? d->ColorMap : gif->SColorMap;
  if (!map) {
    snprintf(err, cap, "missing color map for frame %d", k);
    return 0;
  }
  const int top = d->Top > 0 ? d->Top : 0, left = d->Left > 0 ? d->Left : 0;
  const int bottom = d->Top + d->Height < height ? d->Top + d->Height : height;
  const int right = d->Left + d->Width < width ? d->Left + d->Width : width;
  for (int i = top; i < bottom; i++) {
    uint8_t* row = dst + (size_t)i * (size_t)width * 3;
    for (int j = left; j < right; j++) {
      const GifByteType c = im->RasterBits[(size_t)(i - d->Top) * (size_t)d->Width +
                                           (size_t)(j - d->Left)];
      if (c == gcb.TransparentColor) continue; /* the canvas shows through */
      if (c >= map->ColorCount) {
        snprintf(err, cap, "found color index %d outside of color map range %d", c,
                 map->ColorCount);
        return 0;
      }
      row[3 * j] = map->Colors[c].Red;
      row[3 * j + 1] = map->Colors[c].Green;
      row[3 * j + 2] = map->Colors[c].Blue;
    }
  }
  return 1;
}

static int decode_open(GifFileType* gif, int expand, mt_gif_alloc_fn alloc, void* arg, char* err,
                       size_t cap) {
  if (DGifSlurp(gif) != GIF_OK) {
    snprintf(err, cap, "failed to slurp gif file: %s", gif_error(gif->Error));
    /* TensorFlow goes on with what was read unless nothing usable was */
    if (gif->ImageCount <= 0 || !gif->SavedImages[gif->ImageCount - 1].RasterBits ||
        gif->Error == D_GIF_ERR_EOF_TOO_SOON)
      return 0;
  }
  if (gif->ImageCount <= 0) {
    snprintf(err, cap, "gif file does not contain any image");
    return 0;
  }
  int width = 0, height = 0;
  for (int k = 0; k < gif->ImageCount; k++) {
    const GifImageDesc* d = &gif->SavedImages[k].ImageDesc;
    if (d->Width > width) width = d->Width;
    if (d->Height > height) height = d->Height;
  }
  const int frames = expand ? gif->ImageCount : 1;
  uint8_t* dst = alloc(arg, frames, width, height, 3, err, cap);
  if (!dst) return 0;
  const size_t frame_bytes = (size_t)width * (size_t)height * 3;
  if (frame_bytes) memset(dst, 0, frame_bytes);
  for (int k = 0; k < frames; k++) {
    uint8_t* canvas = dst + (size_t)k * frame_bytes;
    if (k > 0) memcpy(canvas, canvas - frame_bytes, frame_bytes);
    if (!draw_frame(gif, k, canvas, width, height, err, cap)) return 0;
  }
  return 1;
}

int mt_gif_decode(const uint8_t* data, size_t n, int expand, mt_gif_alloc_fn alloc, void* arg,
                  char* err, size_t cap) {
  gif_source src = {data, n};
  int code = D_GIF_SUCCEEDED;
  GifFileType* gif = DGifOpen(&src, gif_read, &code);
  if (!gif || code != D_GIF_SUCCEEDED) {
    snprintf(err, cap, "failed to open gif file: %s", gif_error(code));
    if (gif) DGifCloseFile(gif, &code);
    return 0;
  }
  const int ok = decode_open(gif, expand, alloc, arg, err, cap);
  DGifCloseFile(gif, &code);
  return ok;
}
