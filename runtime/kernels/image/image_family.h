/* The image op family is split by topic (runtime/kernels/image_ops.c keeps
 * the resize kernels and registers the family); each file here registers
 * its ops through one of these, called from mt_register_image_ops. */
#ifndef MINITF_RUNTIME_KERNELS_IMAGE_IMAGE_FAMILY_H_
#define MINITF_RUNTIME_KERNELS_IMAGE_IMAGE_FAMILY_H_

void mt_register_image_codec_ops(void); /* codec_ops.c: PNG, JPEG, GIF, BMP */
void mt_register_image_color_ops(void); /* color_ops.c: contrast, hue, saturation */
void mt_register_image_nms_ops(void);   /* nms_ops.c: NonMaxSuppression* */
void mt_register_image_draw_ops(void);  /* draw_ops.c: DrawBoundingBoxes(V2) */

#endif
