"""tf.compat.v1.losses: TF1 losses, added to GraphKeys.LOSSES (see
minitf/ops/losses_impl.py)."""
from minitf.ops.losses_impl import (  # noqa: F401
    Reduction, absolute_difference, add_loss, compute_weighted_loss, cosine_distance,
    get_losses, get_regularization_loss, get_regularization_losses, get_total_loss, hinge_loss,
    huber_loss, log_loss, mean_pairwise_squared_error, mean_squared_error,
    sigmoid_cross_entropy, softmax_cross_entropy, sparse_softmax_cross_entropy)
