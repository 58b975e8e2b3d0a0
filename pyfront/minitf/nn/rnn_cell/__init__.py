"""tf.nn.rnn_cell / tf.compat.v1.nn.rnn_cell."""
from minitf.ops.rnn_cell_impl import (  # noqa: F401
    BasicLSTMCell, BasicRNNCell, DropoutWrapper, GRUCell, LSTMCell, LSTMStateTuple,
    MultiRNNCell, ResidualWrapper, RNNCell)
