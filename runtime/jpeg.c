/* JPEG decode/encode over libjpeg-turbo (see jpeg.h). */
#include "runtime/jpeg.h"

#include <setjmp.h>
#include <stdio.h> /* jpeglib.h needs FILE */
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

/* ---- errors: fatal ones jump back, messages are dropped ---- */

typedef struct jpeg_catch {
  struct jpeg_error_mgr mgr; /* first: libjpeg's err pointer is this struct */
  jmp_buf jump;
} jpeg_catch;

static void on_error_exit(j_common_ptr cinfo) {
  jpeg_catch* c = (jpeg_catch*)cinfo->err;
  longjmp(c->jump, 1);
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void catch_init(jpeg_catch* c) {
  jpeg_std_error(&c->mgr);
  c->mgr.error_exit = on_error_exit;
  c->mgr.output_message = on_output_message;
}

/* ---- memory source with TensorFlow's end-of-data rules ---- */

typedef struct mem_source {
  struct jpeg_source_mgr pub;
  const JOCTET* data;
  size_t n;
  int recover;
  int stale_fills; /* fill calls in a row that found bytes_in_buffer nonzero */
} mem_source;

static const JOCTET kFakeEOI[2] = {0xFF, JPEG_EOI};

static void src_init(j_decompress_ptr cinfo) {
  mem_source* s = (mem_source*)cinfo->src;
  s->pub.next_input_byte = s->data;
  s->pub.bytes_in_buffer = s->n;
}

/* Called when the decoder wants bytes past the end: an empty input is an
 * error; otherwise suspend (which fails the decode), or, when recovering,
 * insert one EOI marker and fail if even that was not enough. libjpeg's
 * marker reader may call this with a stale (nonzero) bytes_in_buffer;
 * TensorFlow's source then returns TRUE, and libjpeg reads those bytes again.
 * That is kept (it decides the pixels TensorFlow gives for a truncated file),
 * but it can loop forever on a truncated header: past kMaxStaleFills such
 * calls in a row the data is treated as ended. */
enum { kMaxStaleFills = 4096 };

static boolean src_fill(j_decompress_ptr cinfo) {
  mem_source* s = (mem_source*)cinfo->src;
  if (s->pub.bytes_in_buffer == 0 && s->pub.next_input_byte == s->data) {
    ERREXIT(cinfo, JERR_INPUT_EMPTY);
  } else if (s->pub.bytes_in_buffer) {
    if (!s->recover) return FALSE;
    if (++s->stale_fills < kMaxStaleFills) return TRUE;
    ERREXIT(cinfo, JERR_FILE_READ);
  } else if (s->pub.next_input_byte != kFakeEOI && s->recover) {
    s->stale_fills = 0;
    WARNMS(cinfo, JWRN_JPEG_EOF);
    s->pub.next_input_byte = kFakeEOI;
    s->pub.bytes_in_buffer = 2;
    return TRUE;
  }
  ERREXIT(cinfo, JERR_FILE_READ);
  return FALSE;
}

static void src_skip(j_decompress_ptr cinfo, long n) {
  mem_source* s = (mem_source*)cinfo->src;
  if (n < 0) return;
  if ((size_t)n > s->pub.bytes_in_buffer) {
    s->pub.bytes_in_buffer = 0;
    (void)src_fill(cinfo);
  } else {
    s->pub.bytes_in_buffer -= (size_t)n;
    s->pub.next_input_byte += n;
  }
}

static void src_term(j_decompress_ptr cinfo) { (void)cinfo; }

static void set_source(j_decompress_ptr cinfo, mem_source* s, const uint8_t* data, size_t n,
                       int recover) {
  memset(s, 0, sizeof *s);
  s->pub.init_source = src_init;
  s->pub.fill_input_buffer = src_fill;
  s->pub.skip_input_data = src_skip;
  s->pub.resync_to_restart = jpeg_resync_to_restart;
  s->pub.term_source = src_term;
  s->data = data;
  s->n = n;
  s->recover = recover;
  cinfo->src = &s->pub;
}

/* ---- decoding ---- */

typedef struct jpeg_decode_job {
  struct jpeg_decompress_struct cinfo;
  jpeg_catch err;
  mem_source src;
  const mt_jpeg_decode_flags* flags;
  mt_jpeg_alloc_fn alloc;
  void* arg;
  JSAMPLE* temp;   /* a CMYK or MCU-aligned scanline */
  uint8_t* out;
  int height, stride, height_read;
  int components;
} jpeg_decode_job;

static int crop_window_ok(const mt_jpeg_decode_flags* f, JDIMENSION w, JDIMENSION h) {
  return f->crop_width > 0 && f->crop_height > 0 && f->crop_x >= 0 && f->crop_y >= 0 &&
         (int64_t)f->crop_y + f->crop_height <= (int64_t)h &&
         (int64_t)f->crop_x + f->crop_width <= (int64_t)w;
}

/* One scanline into `line` (width pixels of `components`), converting CMYK
 * as TensorFlow does (Adobe files store inverted CMYK). Returns lines read. */
static int read_line(jpeg_decode_job* j, JSAMPLE* line, int width, int cmyk, int realign) {
  struct jpeg_decompress_struct* ci = &j->cinfo;
  const int offset = (int)(ci->output_width - (JDIMENSION)width) * (cmyk ? 4 : j->components);
  if (!cmyk && !realign) return (int)jpeg_read_scanlines(ci, &line, 1);
  JSAMPLE* t = j->temp;
  const int got = (int)jpeg_read_scanlines(ci, &t, 1);
  if (got <= 0) return got;
  if (!cmyk) {
    memcpy(line, j->temp + offset, (size_t)width * (size_t)j->components);
    return got;
  }
  for (int i = 0; i < width; i++) {
    const JSAMPLE* p = j->temp + 4 * i + (realign ? offset : 0);
    const int c = p[0], m = p[1], y = p[2], k = p[3];
    if (ci->saw_Adobe_marker) {
      line[3 * i] = (JSAMPLE)(k * c / 255);
      line[3 * i + 1] = (JSAMPLE)(k * m / 255);
      line[3 * i + 2] = (JSAMPLE)(k * y / 255);
    } else {
      line[3 * i] = (JSAMPLE)((255 - k) * (255 - c) / 255);
      line[3 * i + 1] = (JSAMPLE)((255 - k) * (255 - m) / 255);
      line[3 * i + 2] = (JSAMPLE)((255 - k) * (255 - y) / 255);
    }
  }
  return got;
}

/* Everything that may longjmp. Returns 1 with j->out set on success. */
static int jpeg_decode_run(jpeg_decode_job* j, const uint8_t* data, size_t n) {
  struct jpeg_decompress_struct* ci = &j->cinfo;
  const mt_jpeg_decode_flags* f = j->flags;
  if (setjmp(j->err.jump)) return 0;
  jpeg_create_decompress(ci);
  set_source(ci, &j->src, data, n, f->try_recover_truncated);
  jpeg_read_header(ci, TRUE);
  j->components = f->components ? f->components : (ci->num_components < 3 ? ci->num_components : 3);
  if (j->components == 1) {
    ci->out_color_space = JCS_GRAYSCALE;
  } else if (j->components == 3) {
    const int cmyk = ci->jpeg_color_space == JCS_CMYK || ci->jpeg_color_space == JCS_YCCK;
    ci->out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
  } else {
    return 0;
  }
  ci->do_fancy_upsampling = f->fancy_upscaling ? TRUE : FALSE;
  ci->scale_num = 1;
  ci->scale_denom = (unsigned)f->ratio;
  ci->dct_method = f->dct_accurate ? JDCT_ISLOW : JDCT_IFAST;
  jpeg_calc_output_dimensions(ci);
  const int64_t total = (int64_t)ci->output_height * ci->output_width * ci->num_components;
  if (ci->output_width == 0 || ci->output_height == 0 || total >= ((int64_t)1 << 29)) return 0;
  jpeg_start_decompress(ci);
  int width = (int)ci->output_width, height = (int)ci->output_height;
  JDIMENSION skipped = 0;
  if (f->crop) {
    if (!crop_window_ok(f, ci->output_width, ci->output_height)) return 0;
    width = f->crop_width;
    height = f->crop_height;
    JDIMENSION cx = (JDIMENSION)f->crop_x, cw = (JDIMENSION)f->crop_width;
    jpeg_crop_scanline(ci, &cx, &cw);
    skipped = jpeg_skip_scanlines(ci, (JDIMENSION)f->crop_y);
    if (skipped != (JDIMENSION)f->crop_y) return 0;
  }
  j->height = height;
  j->stride = width * j->components;
  j->out = j->alloc(j->arg, width, height, j->components);
  if (!j->out) return 0;
  const int realign = (JDIMENSION)width != ci->output_width;
  const int cmyk = ci->out_color_space == JCS_CMYK;
  if (cmyk || realign) {
    j->temp = malloc((size_t)ci->output_width * (cmyk ? 4 : (size_t)j->components));
    if (!j->temp) return 0;
  }
  j->height_read = height;
  int truncated = 0;
  const JDIMENSION last = skipped + (JDIMENSION)height;
  uint8_t* line = j->out;
  while (ci->output_scanline < last) {
    if (read_line(j, line, width, cmyk, realign) > 0) {
      line += j->stride;
      continue;
    }
    if (!f->try_recover_truncated) {
      j->height_read = (int)(ci->output_scanline - skipped);
      truncated = 1;
    } else { /* repeat the line above (black for the first) down to the end */
      for (JDIMENSION y = ci->output_scanline; y < last; y++, line += j->stride) {
        if (line == j->out) memset(line, 0, (size_t)j->stride);
        else memcpy(line, line - j->stride, (size_t)j->stride);
      }
      ci->output_scanline = last;
    }
    break;
  }
  if (f->crop && ci->output_scanline < ci->output_height)
    jpeg_skip_scanlines(ci, ci->output_height - (JDIMENSION)f->crop_y - (JDIMENSION)f->crop_height);
  const int want = j->components == 1 ? 1 : (cmyk ? 4 : 3);
  if (truncated || ci->output_components != want) jpeg_abort((j_common_ptr)ci);
  else jpeg_finish_decompress(ci);
  return 1;
}

int mt_jpeg_decode(const uint8_t* data, size_t n, const mt_jpeg_decode_flags* flags,
                   mt_jpeg_alloc_fn alloc, void* arg) {
  const int r = flags->ratio;
  if (r != 1 && r != 2 && r != 4 && r != 8) return 0;
  if (flags->components != 0 && flags->components != 1 && flags->components != 3) return 0;
  if (n == 0 || !data) return 0;
  jpeg_decode_job* j = calloc(1, sizeof *j);
  if (!j) return 0;
  j->flags = flags;
  j->alloc = alloc;
  j->arg = arg;
  j->cinfo.err = &j->err.mgr;
  catch_init(&j->err);
  int ok = jpeg_decode_run(j, data, n);
  jpeg_destroy_decompress(&j->cinfo);
  free(j->temp);
  if (ok && j->height > 0) {
    const float read = (float)j->height_read / (float)j->height;
    const float need = flags->min_acceptable_fraction < 1.0f ? flags->min_acceptable_fraction : 1.0f;
    if (read < need) ok = 0;
    else if (j->height_read < j->height) /* rows never read are black */
      memset(j->out + (size_t)j->height_read * (size_t)j->stride, 0,
             (size_t)(j->height - j->height_read) * (size_t)j->stride);
  }
  free(j);
  return ok;
}

typedef struct jpeg_info_job {
  struct jpeg_decompress_struct cinfo;
  jpeg_catch err;
  mem_source src;
} jpeg_info_job;

static int jpeg_info_run(jpeg_info_job* j, const uint8_t* data, size_t n) {
  if (setjmp(j->err.jump)) return 0;
  jpeg_create_decompress(&j->cinfo);
  set_source(&j->cinfo, &j->src, data, n, 0);
  jpeg_read_header(&j->cinfo, TRUE);
  jpeg_start_decompress(&j->cinfo); /* sets the output size */
  return 1;
}

int mt_jpeg_info(const uint8_t* data, size_t n, int* width, int* height, int* components) {
  *width = *height = *components = 0;
  if (n == 0 || !data) return 0;
  jpeg_info_job* j = calloc(1, sizeof *j);
  if (!j) return 0;
  j->cinfo.err = &j->err.mgr;
  catch_init(&j->err);
  const int ok = jpeg_info_run(j, data, n);
  if (ok) {
    *width = (int)j->cinfo.output_width;
    *height = (int)j->cinfo.output_height;
    *components = j->cinfo.output_components;
  }
  jpeg_destroy_decompress(&j->cinfo);
  free(j);
  return ok;
}

/* ---- encoding ---- */

typedef struct mem_dest {
  struct jpeg_destination_mgr pub;
  JOCTET* buf;
  size_t cap;
} mem_dest;

static void dst_init(j_compress_ptr cinfo) {
  mem_dest* d = (mem_dest*)cinfo->dest;
  d->pub.next_output_byte = d->buf;
  d->pub.free_in_buffer = d->cap;
}

static boolean dst_empty(j_compress_ptr cinfo) { /* the buffer is full: double it */
  mem_dest* d = (mem_dest*)cinfo->dest;
  JOCTET* nb = realloc(d->buf, d->cap * 2);
  if (!nb) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
  d->buf = nb;
  d->pub.next_output_byte = nb + d->cap;
  d->pub.free_in_buffer = d->cap;
  d->cap *= 2;
  return TRUE;
}

static void dst_term(j_compress_ptr cinfo) { (void)cinfo; }

typedef struct jpeg_encode_job {
  struct jpeg_compress_struct cinfo;
  jpeg_catch err;
  mem_dest dest;
  JSAMPLE* row;
} jpeg_encode_job;

static const char kXmpNamespace[] = "http://ns.adobe.com/xap/1.0/";

static int jpeg_encode_run(jpeg_encode_job* j, const uint8_t* pixels, int width, int height,
                      const mt_jpeg_encode_flags* f) {
  struct jpeg_compress_struct* ci = &j->cinfo;
  if (setjmp(j->err.jump)) return 0;
  jpeg_create_compress(ci);
  j->dest.pub.init_destination = dst_init;
  j->dest.pub.empty_output_buffer = dst_empty;
  j->dest.pub.term_destination = dst_term;
  ci->dest = &j->dest.pub;
  ci->image_width = (JDIMENSION)width;
  ci->image_height = (JDIMENSION)height;
  ci->input_components = f->components;
  ci->in_color_space = f->components == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(ci);
  if (f->optimize_size) ci->optimize_coding = TRUE;
  ci->density_unit = (UINT8)f->density_unit;
  ci->X_density = (UINT16)f->x_density;
  ci->Y_density = (UINT16)f->y_density;
  jpeg_set_quality(ci, f->quality, TRUE);
  if (f->progressive) jpeg_simple_progression(ci);
  if (!f->chroma_downsampling)
    for (int i = 0; i < ci->num_components; i++)
      ci->comp_info[i].h_samp_factor = ci->comp_info[i].v_samp_factor = 1;
  jpeg_start_compress(ci, TRUE);
  if (f->xmp && f->xmp_len) { /* APP1: the namespace, a NUL, then the packet */
    const size_t ns = sizeof kXmpNamespace; /* with its NUL */
    j->row = malloc(ns + f->xmp_len);
    if (!j->row) return 0;
    memcpy(j->row, kXmpNamespace, ns);
    memcpy(j->row + ns, f->xmp, f->xmp_len);
    jpeg_write_marker(ci, JPEG_APP0 + 1, j->row, (unsigned)(ns + f->xmp_len));
  }
  const size_t stride = (size_t)width * (size_t)f->components;
  while (ci->next_scanline < ci->image_height) {
    JSAMPROW r = (JSAMPROW)(pixels + (size_t)ci->next_scanline * stride);
    jpeg_write_scanlines(ci, &r, 1);
  }
  jpeg_finish_compress(ci);
  return 1;
}

int mt_jpeg_encode(const uint8_t* pixels, int width, int height,
                   const mt_jpeg_encode_flags* f, uint8_t** out, size_t* out_len) {
  *out = NULL;
  *out_len = 0;
  if (width <= 0 || height <= 0 || (int64_t)width * height >= ((int64_t)1 << 29)) return 0;
  if (f->components != 1 && f->components != 3) return 0;
  jpeg_encode_job* j = calloc(1, sizeof *j);
  if (!j) return 0;
  j->dest.cap = 4096;
  j->dest.buf = malloc(j->dest.cap);
  j->cinfo.err = &j->err.mgr;
  catch_init(&j->err);
  const int ok = j->dest.buf && jpeg_encode_run(j, pixels, width, height, f);
  if (ok) {
    *out = j->dest.buf;
    *out_len = j->dest.cap - j->dest.pub.free_in_buffer;
  } else {
    free(j->dest.buf);
  }
  jpeg_destroy_compress(&j->cinfo);
  free(j->row);
  free(j);
  return ok;
}
