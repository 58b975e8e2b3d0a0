"""tf.nn (each section is filled by its op family)."""
from minitf.ops.nn_ops import bias_add, relu, softmax  # noqa: F401

# --- nn (activations, softmax, batch norm, losses, top_k) ---
from minitf.ops.nn_ops import (  # noqa: F401,E402
    batch_normalization, elu, fused_batch_norm, in_top_k, l2_loss, leaky_relu,
    local_response_normalization, log_softmax, lrn, relu6, selu, softmax_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits_v2, softplus, softsign,
    sparse_softmax_cross_entropy_with_logits, top_k)

# --- conv / pooling ---
from minitf.ops.nn_conv import (  # noqa: F401,E402
    avg_pool, avg_pool2d, avg_pool_v2, conv2d, conv2d_backprop_input, conv2d_transpose,
    depthwise_conv2d, depthwise_conv2d_native, max_pool, max_pool2d, max_pool_v2)

# --- elementwise aliases (e.g. sigmoid, tanh) ---
from minitf.ops.math_ops import sigmoid, tanh  # noqa: F401,E402

# --- RNNs (cells, dynamic_rnn, static_rnn, bidirectional) and dropout ---
from minitf.nn import rnn_cell  # noqa: F401,E402
from minitf.ops.nn_ops import dropout  # noqa: F401,E402
from minitf.ops.rnn import (  # noqa: F401,E402
    bidirectional_dynamic_rnn, dynamic_rnn, static_bidirectional_rnn, static_rnn)

# --- embeddings ---
from minitf.ops.embedding_ops import embedding_lookup  # noqa: F401,E402

# --- nn composites (losses, moments, normalization, activations; ops/nn_impl.py) ---
from minitf.ops.nn_impl import (  # noqa: F401,E402
    batch_norm_with_global_normalization, compute_average_loss, crelu, l2_normalize,
    log_poisson_loss, moments, normalize_moments, relu_layer, scale_regularization_loss,
    sigmoid_cross_entropy_with_logits, silu, sufficient_statistics, swish,
    weighted_cross_entropy_with_logits, weighted_moments, xw_plus_b, zero_fraction)
from minitf.ops.indexing_ops import depth_to_space, space_to_depth  # noqa: F401,E402
from minitf.ops.nn_impl import space_to_batch  # noqa: F401,E402

# --- conv / pooling composites (ops/nn_conv_nd.py) ---
from minitf.ops.nn_conv_nd import (  # noqa: F401,E402
    atrous_conv2d, atrous_conv2d_transpose, avg_pool1d, conv1d, conv1d_transpose,
    conv2d_backprop_filter, conv_transpose, convolution, depthwise_conv2d_native_backprop_filter,
    depthwise_conv2d_native_backprop_input, max_pool1d, pool, separable_conv2d,
    with_space_to_batch)
from minitf.ops.nn_conv_nd import (  # noqa: F401,E402
    avg_pool3d, conv3d, conv3d_backprop_filter, conv3d_backprop_filter_v2, conv3d_transpose,
    max_pool3d)
depthwise_conv2d_backprop_filter = depthwise_conv2d_native_backprop_filter
depthwise_conv2d_backprop_input = depthwise_conv2d_native_backprop_input

# --- candidate samplers and sampled losses ---
from minitf.ops.candidate_sampling_ops import (  # noqa: F401,E402
    all_candidate_sampler, compute_accidental_hits, fixed_unigram_candidate_sampler,
    log_uniform_candidate_sampler, uniform_candidate_sampler)
from minitf.ops.nn_impl import ctc_unique_labels, nce_loss, sampled_softmax_loss  # noqa: F401,E402
