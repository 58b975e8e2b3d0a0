"""The TF1 wrapper calls checked by test_conv_ops.py against real TensorFlow's outputs
(tools/gen_conv_wrappers.py runs the same calls with tensorflow.compat.v1 as `tf`)."""
import numpy as np

_rng = np.random.RandomState(11)
INPUTS = {
    "x": _rng.uniform(-1, 1, (2, 6, 5, 3)).astype(np.float32),
    "w": _rng.uniform(-1, 1, (3, 3, 3, 4)).astype(np.float32),
    "wd": _rng.uniform(-1, 1, (3, 3, 3, 2)).astype(np.float32),
    "dy": _rng.uniform(-1, 1, (2, 3, 3, 4)).astype(np.float32),
    "img": _rng.randint(0, 255, (2, 4, 5, 3)).astype(np.uint8),
    "img3": _rng.uniform(0, 1, (4, 5, 2)).astype(np.float32),
}

WRAPPER_CASES = [
    ("conv2d_int_strides", lambda tf, p: tf.nn.conv2d(p["x"], p["w"], strides=2, padding="SAME")),
    ("conv2d_explicit", lambda tf, p: tf.nn.conv2d(
        p["x"], filters=p["w"], strides=[1, 2], padding=[[0, 0], [1, 2], [0, 1], [0, 0]])),
    ("conv2d_dilations", lambda tf, p: tf.nn.conv2d(p["x"], p["w"], strides=[1, 1, 1, 1],
                                                    padding="SAME", dilations=2, name="dil")),
    ("conv2d_transpose", lambda tf, p: tf.nn.conv2d_transpose(
        p["dy"], p["w"], [2, 6, 5, 3], strides=2, padding="SAME")),
    ("conv2d_transpose_input", lambda tf, p: tf.nn.conv2d_transpose(
        input=p["dy"], filters=p["w"], output_shape=[2, 7, 7, 3], strides=[2, 2],
        padding="VALID")),
    ("conv2d_backprop_input", lambda tf, p: tf.nn.conv2d_backprop_input(
        [2, 6, 5, 3], p["w"], p["dy"], [1, 2, 2, 1], "SAME")),
    ("depthwise_rate", lambda tf, p: tf.nn.depthwise_conv2d(p["x"], p["wd"], [1, 1, 1, 1],
                                                            "SAME", rate=[2, 2])),
    ("depthwise_strides", lambda tf, p: tf.nn.depthwise_conv2d(p["x"], p["wd"], [1, 2, 2, 1],
                                                               "VALID")),
    ("depthwise_native", lambda tf, p: tf.nn.depthwise_conv2d_native(p["x"], p["wd"],
                                                                     [1, 1, 1, 1], "SAME")),
    ("max_pool_int", lambda tf, p: tf.nn.max_pool(p["x"], 2, 2, "SAME")),
    ("max_pool_list", lambda tf, p: tf.nn.max_pool(p["x"], [3, 3], [2, 1], "VALID", name="mp")),
    ("max_pool_explicit", lambda tf, p: tf.nn.max_pool(
        p["x"], [1, 2, 2, 1], [1, 2, 2, 1], [[0, 0], [1, 0], [0, 1], [0, 0]])),
    ("max_pool2d", lambda tf, p: tf.nn.max_pool2d(p["x"], 3, 2, "SAME")),
    ("max_pool_v2", lambda tf, p: tf.nn.max_pool_v2(p["x"], [2, 2], [2, 2], "VALID")),
    ("avg_pool", lambda tf, p: tf.nn.avg_pool(p["x"], 3, 1, "SAME")),
    ("avg_pool2d", lambda tf, p: tf.nn.avg_pool2d(value=p["x"], ksize=[2, 3], strides=2,
                                                  padding="SAME")),
    ("avg_pool_v2", lambda tf, p: tf.nn.avg_pool_v2(p["x"], 2, 2, "VALID")),
    ("resize_bilinear", lambda tf, p: tf.image.resize_bilinear(p["x"], [7, 3],
                                                               half_pixel_centers=True)),
    ("resize_bilinear_uint8", lambda tf, p: tf.image.resize_bilinear(p["img"], [9, 2],
                                                                     align_corners=True)),
    ("resize_nearest", lambda tf, p: tf.image.resize_nearest_neighbor(p["img"], [2, 9],
                                                                      align_corners=True)),
    ("resize_images", lambda tf, p: tf.image.resize_images(p["x"], [7, 7])),
    ("resize_images_nearest", lambda tf, p: tf.image.resize_images(
        p["img"], [3, 8], method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)),
    ("resize_string_method", lambda tf, p: tf.image.resize(p["x"], [3, 3], method="nearest")),
    ("resize_same_size", lambda tf, p: tf.image.resize_images(p["x"], [6, 5])),
    ("resize_aspect", lambda tf, p: tf.image.resize_images(p["x"], [12, 8],
                                                           preserve_aspect_ratio=True)),
    ("resize_3d", lambda tf, p: tf.image.resize_images(p["img3"], [6, 3])),
]
