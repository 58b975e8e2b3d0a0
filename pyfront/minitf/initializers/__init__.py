"""tf.compat.v1.initializers: the TF1 initializers and the variable-initializer ops."""
from minitf.ops.init_ops import (  # noqa: F401
    Constant as constant, GlorotNormal as glorot_normal, GlorotUniform as glorot_uniform,
    Identity as identity, Ones as
    ones, RandomNormal as random_normal, RandomUniform as random_uniform, TruncatedNormal as
    truncated_normal, UniformUnitScaling as uniform_unit_scaling, VarianceScaling as
    variance_scaling, Zeros as zeros, he_normal, he_uniform, lecun_normal, lecun_uniform)
from minitf.ops.init_ops import Orthogonal as orthogonal  # noqa: F401
from minitf.ops.variables import (  # noqa: F401
    global_variables_initializer as global_variables,
    local_variables_initializer as local_variables, variables_initializer as variables)
from minitf.ops.template import tables_initializer  # noqa: F401,E402
