"""tf.image (filled by the image op family)."""

# --- image ---
from minitf.ops.nn_conv import (  # noqa: F401,E402
    ResizeMethod, resize, resize_bilinear, resize_images, resize_nearest_neighbor)
from minitf.ops.image_ops import (  # noqa: F401,E402
    adjust_brightness, adjust_contrast, adjust_gamma, adjust_hue, adjust_jpeg_quality,
    adjust_saturation, central_crop, convert_image_dtype, crop_to_bounding_box,
    decode_and_crop_jpeg, decode_bmp, draw_bounding_boxes, decode_gif, decode_image, decode_jpeg, decode_png,
    encode_jpeg, encode_png, extract_jpeg_shape, flip_left_right, flip_up_down,
    grayscale_to_rgb, image_gradients, non_max_suppression, non_max_suppression_overlaps,
    non_max_suppression_with_scores, pad_to_bounding_box,
    per_image_standardization, psnr, random_brightness, random_contrast, random_crop,
    random_flip_left_right, random_flip_up_down, random_hue, random_jpeg_quality,
    random_saturation, resize_area, resize_image_with_crop_or_pad, resize_image_with_pad,
    resize_with_crop_or_pad, rgb_to_grayscale, rgb_to_yiq, rgb_to_yuv, rot90,
    sobel_edges, ssim, ssim_multiscale, total_variation, transpose, transpose_image, yiq_to_rgb,
    yuv_to_rgb)
