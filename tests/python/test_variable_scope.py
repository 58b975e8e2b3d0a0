"""tf.variable_scope / tf.get_variable against TensorFlow 2.21 (tf.compat.v1 graph mode).

EXPECTED holds what tools/gen_varscope_expected.py printed for the programs in
varscope_cases.py under real TensorFlow: every op (name, type, inputs, control inputs),
variable names, collections, scope attributes, error messages and initial values. The
focused tests below restate the main rules by hand.
"""
import numpy as np
import pytest

import minitf as tf
from varscope_cases import CASES

# Matmul/tanh results: the last bits differ between BLAS libraries (initial values do not).
APPROX = {"mlp_forward": {"out"}}


@pytest.mark.parametrize("name", [n for n in CASES if not n.startswith("initializer")])
def test_case_matches_tensorflow(name):
    got = CASES[name](tf)
    want = EXPECTED[name]
    assert sorted(got) == sorted(want)
    for key in want:
        if key in APPROX.get(name, ()):
            np.testing.assert_allclose(got[key], want[key], rtol=2e-6, atol=0)
        else:
            assert got[key] == want[key], key


@pytest.fixture
def graph():
    g = tf.Graph()
    with g.as_default():
        yield g


def test_variables_keep_scope_name_while_ops_get_scope_1(graph):
    with tf.variable_scope("scope"):
        v = tf.get_variable("v", [1])
        a = tf.constant(0.0, name="a")
    with tf.variable_scope("scope", reuse=True):
        w = tf.get_variable("v", [1])
        b = tf.constant(0.0, name="a")
    assert w is v and v.name == "scope/v:0"
    assert (a.name, b.name) == ("scope/a:0", "scope_1/a:0")
    assert v.op.type == "VarHandleOp"
    assert v.initializer.name == "scope/v/Assign"
    # Session.run(v) fetches the variable's own read; value() reads afresh (TF 2.21 names)
    assert v._as_graph_element().name == "scope/v/Read/ReadVariableOp:0"
    assert v.value().name == "ReadVariableOp:0"


def test_reuse_errors(graph):
    with tf.variable_scope("scope"):
        tf.get_variable("v", [1])
    with pytest.raises(ValueError) as e:
        with tf.variable_scope("scope"):
            tf.get_variable("v", [1])
    assert str(e.value) == ("Variable scope/v already exists, disallowed. Did you mean to set "
                            "reuse=True or reuse=tf.AUTO_REUSE in VarScope?")
    with pytest.raises(ValueError) as e:
        with tf.variable_scope("scope", reuse=True):
            tf.get_variable("w", [1])
    assert str(e.value) == ("Variable scope/w does not exist, or was not created with "
                            "tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in "
                            "VarScope?")
    # A failed get leaves the scope stack as it was.
    assert tf.get_variable_scope().name == ""
    assert graph.get_name_scope() == ""


def test_auto_reuse_and_inherited_reuse(graph):
    with tf.variable_scope("a", reuse=tf.AUTO_REUSE):
        x = tf.get_variable("x", [2])
        with tf.variable_scope("b") as b:
            y = tf.get_variable("y", [2])
            assert b.reuse is tf.AUTO_REUSE
    with tf.variable_scope("a", reuse=tf.AUTO_REUSE):
        assert tf.get_variable("x", [2]) is x
        assert tf.get_variable("b/y") is y
    assert [v.name for v in tf.global_variables()] == ["a/x:0", "a/b/y:0"]


def test_scope_dtype_and_initializer_defaults(graph):
    with tf.variable_scope("s", dtype=tf.float64, initializer=tf.constant_initializer(2.5)) as s:
        v = tf.get_variable("v", [2])
        assert (s.dtype, type(s.initializer).__name__) == (tf.float64, "Constant")
    assert v.dtype == tf.float64
    with tf.Session() as sess:
        sess.run(tf.variables_initializer([v]))
        assert sess.run(v).tolist() == [2.5, 2.5]


def test_default_glorot_uniform_seeded(graph):
    # TensorFlow: tf.set_random_seed(1); get_variable("scope/v", [2, 3]) (see EXPECTED).
    tf.set_random_seed(1)
    with tf.variable_scope("scope"):
        v = tf.get_variable("v", [2, 3])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got = sess.run(v)
    want = np.array([[0.6850836277008057, -0.9232966899871826, 0.8581399917602539],
                     [-0.7246257066726685, -0.9571702480316162, 0.09927082061767578]],
                    np.float32)
    assert got.dtype == np.float32 and np.array_equal(got, want)


def test_shape_and_dtype_checks_on_reuse(graph):
    with tf.variable_scope("s"):
        tf.get_variable("v", [1])
    with tf.variable_scope("s", reuse=True):
        with pytest.raises(ValueError, match=r"specified shape \(2,\) and found shape \(1,\)"):
            tf.get_variable("v", [2])
        with pytest.raises(ValueError, match="specified dtype int32 and found dtype float32"):
            tf.get_variable("v", dtype=tf.int32)


def test_partitioner_makes_parts(graph):
    """A partitioner gives a PartitionedVariable (more in test_partitioned.py)."""
    p = tf.get_variable("p", [4], partitioner=lambda shape, dtype: [2])
    assert [(v.op.name, v._get_save_slice_info().spec) for v in p] == \
        [("p/part_0", "4 0,2"), ("p/part_1", "4 2,2")]


def test_compat_v1_exports():
    v1 = tf.compat.v1
    assert v1.variable_scope is tf.variable_scope and v1.get_variable is tf.get_variable
    assert v1.AUTO_REUSE is tf.AUTO_REUSE and v1.initializers.zeros is tf.zeros_initializer
    assert tf.initializers.variables is tf.variables_initializer


EXPECTED = {
    'basic_seeded': {'dtype': 'float32',
     'keys': ['trainable_variables', 'variables'],
     'name': 'scope/v:0',
     'ops': [('scope/v/Initializer/random_uniform/shape', 'Const', [], [], ['loc:@scope/v']),
             ('scope/v/Initializer/random_uniform/min', 'Const', [], [], ['loc:@scope/v']),
             ('scope/v/Initializer/random_uniform/max', 'Const', [], [], ['loc:@scope/v']),
             ('scope/v/Initializer/random_uniform/RandomUniform',
              'RandomUniform',
              ['scope/v/Initializer/random_uniform/shape:0'],
              [],
              ['loc:@scope/v']),
             ('scope/v/Initializer/random_uniform/sub',
              'Sub',
              ['scope/v/Initializer/random_uniform/max:0',
               'scope/v/Initializer/random_uniform/min:0'],
              [],
              ['loc:@scope/v']),
             ('scope/v/Initializer/random_uniform/mul',
              'Mul',
              ['scope/v/Initializer/random_uniform/RandomUniform:0',
               'scope/v/Initializer/random_uniform/sub:0'],
              [],
              ['loc:@scope/v']),
             ('scope/v/Initializer/random_uniform',
              'AddV2',
              ['scope/v/Initializer/random_uniform/mul:0',
               'scope/v/Initializer/random_uniform/min:0'],
              [],
              ['loc:@scope/v']),
             ('scope/v', 'VarHandleOp', [], [], ['loc:@scope/v']),
             ('scope/v/IsInitialized/VarIsInitializedOp',
              'VarIsInitializedOp',
              ['scope/v:0'],
              [],
              []),
             ('scope/v/Assign',
              'AssignVariableOp',
              ['scope/v:0', 'scope/v/Initializer/random_uniform:0'],
              [],
              []),
             ('scope/v/Read/ReadVariableOp', 'ReadVariableOp', ['scope/v:0'], [], [])],
     'repr': "<tf.Variable 'scope/v:0' shape=(2, 3) dtype=float32>",
     'shape': [2, 3],
     'values': [[[0.6850836277008057, -0.9232966899871826, 0.8581399917602539],
                 [-0.7246257066726685, -0.9571702480316162, 0.09927082061767578]]]},
    'reuse_and_name_scopes': {'ops': [('foo/v/Initializer/zeros', 'Const', [], [], ['loc:@foo/v']),
             ('foo/v', 'VarHandleOp', [], [], ['loc:@foo/v']),
             ('foo/v/IsInitialized/VarIsInitializedOp',
              'VarIsInitializedOp',
              ['foo/v:0'],
              [],
              []),
             ('foo/v/Assign',
              'AssignVariableOp',
              ['foo/v:0', 'foo/v/Initializer/zeros:0'],
              [],
              []),
             ('foo/v/Read/ReadVariableOp', 'ReadVariableOp', ['foo/v:0'], [], []),
             ('foo/a', 'Const', [], [], []),
             ('foo_1/a', 'Const', [], [], []),
             ('foo_2/a', 'Const', [], [], [])],
     'same': [True, True],
     'scopes': [('foo', 'foo_1/', True), ('foo', 'foo_2/', True)],
     'tensors': ['foo/a:0', 'foo_1/a:0', 'foo_2/a:0']},
    'errors': {'bad_aux': ('TypeError',
                 'The auxiliary_name_scope must be `True` or `False`, while get 1'),
     'bad_reuse': ('ValueError', 'The reuse parameter must be True or False or None.'),
     'bad_type': ('TypeError',
                  'VariableScope: name_or_scope must be a string or VariableScope.'),
     'complex': ('ValueError',
                 "An initializer for variable c of <dtype: 'complex64'> is required"),
     'const_and_shape': ('ValueError', 'If initializer is a constant, do not specify shape.'),
     'dtype': ('ValueError',
               'Trying to share variable scope/v, but specified dtype int32 and found dtype '
               'float32.'),
     'exists': ('ValueError',
                'Variable scope/v already exists, disallowed. Did you mean to set reuse=True '
                'or reuse=tf.AUTO_REUSE in VarScope?'),
     'globals': ['scope/v:0'],
     'init_dtype': ('ValueError',
                    "Initializer type '<dtype: 'int32'>' and explicit dtype '<dtype: "
                    "'float32'>' don't match."),
     'missing': ('ValueError',
                 'Variable scope/w does not exist, or was not created with tf.get_variable(). '
                 'Did you mean to set reuse=tf.AUTO_REUSE in VarScope?'),
     'no_name': ('TypeError', 'If default_name is None then name_or_scope is required'),
     'no_shape': ('ValueError',
                  'Variable u did not get an initializer, so its `shape` argument must be '
                  'specified.'),
     'ops': [('scope/v/Initializer/random_uniform/shape', 'Const', [], [], ['loc:@scope/v']),
             ('scope/v/Initializer/random_uniform/min', 'Const', [], [], ['loc:@scope/v']),
             ('scope/v/Initializer/random_uniform/max', 'Const', [], [], ['loc:@scope/v']),
             ('scope/v/Initializer/random_uniform/RandomUniform',
              'RandomUniform',
              ['scope/v/Initializer/random_uniform/shape:0'],
              [],
              ['loc:@scope/v']),
             ('scope/v/Initializer/random_uniform/sub',
              'Sub',
              ['scope/v/Initializer/random_uniform/max:0',
               'scope/v/Initializer/random_uniform/min:0'],
              [],
              ['loc:@scope/v']),
             ('scope/v/Initializer/random_uniform/mul',
              'Mul',
              ['scope/v/Initializer/random_uniform/RandomUniform:0',
               'scope/v/Initializer/random_uniform/sub:0'],
              [],
              ['loc:@scope/v']),
             ('scope/v/Initializer/random_uniform',
              'AddV2',
              ['scope/v/Initializer/random_uniform/mul:0',
               'scope/v/Initializer/random_uniform/min:0'],
              [],
              ['loc:@scope/v']),
             ('scope/v', 'VarHandleOp', [], [], ['loc:@scope/v']),
             ('scope/v/IsInitialized/VarIsInitializedOp',
              'VarIsInitializedOp',
              ['scope/v:0'],
              [],
              []),
             ('scope/v/Assign',
              'AssignVariableOp',
              ['scope/v:0', 'scope/v/Initializer/random_uniform:0'],
              [],
              []),
             ('scope/v/Read/ReadVariableOp', 'ReadVariableOp', ['scope/v:0'], [], []),
             ('Const', 'Const', [], [], [])],
     'reuse_default': ('ValueError', 'reuse=True cannot be used without a name_or_scope'),
     'shape': ('ValueError',
               'Trying to share variable scope/v, but specified shape (2,) and found shape '
               '(1,).')},
    'auto_reuse': {'globals': ['layer/w:0'],
     'names': ['layer/w:0', 'layer/c:0', 'layer_1/c:0'],
     'ops': [('layer/w/Initializer/ones', 'Const', [], [], ['loc:@layer/w']),
             ('layer/w', 'VarHandleOp', [], [], ['loc:@layer/w']),
             ('layer/w/IsInitialized/VarIsInitializedOp',
              'VarIsInitializedOp',
              ['layer/w:0'],
              [],
              []),
             ('layer/w/Assign',
              'AssignVariableOp',
              ['layer/w:0', 'layer/w/Initializer/ones:0'],
              [],
              []),
             ('layer/w/Read/ReadVariableOp', 'ReadVariableOp', ['layer/w:0'], [], []),
             ('layer/c', 'Const', [], [], []),
             ('layer_1/c', 'Const', [], [], [])],
     'reuse_repr': '<_ReuseMode.AUTO_REUSE: 1>',
     'same': True},
    'reenter_by_object': {'consts': ['outer/c:0',
                'outer_1/c:0',
                'other/outer/c:0',
                'other/outer/inner/c:0',
                'c:0',
                'outer/c_1:0',
                'outer/c_2:0'],
     'globals': ['outer/a:0', 'outer/w:0'],
     'scopes': [('outer', 'outer/', False),
                ('outer', 'outer/', True),
                ('outer/inner', 'other/outer/inner/', True),
                ('outer', 'outer/')],
     'vars': ['outer/w:0', 'outer/a:0']},
    'default_names': {'scopes': [('layer', 'layer/', 'layer/w:0', 'layer/c:0'),
                ('layer_1', 'layer_1/', 'layer_1/w:0', 'layer_1/c:0'),
                ('layer_3', 'layer_3/'),
                ('block/layer', 'block/layer/'),
                ('block/layer_1', 'block/layer_1/'),
                ('block/layer', 'block_1/layer/'),
                ('net', 'net/'),
                ('', '', 'c:0')]},
    'name_scope_interplay': {'info': ('vs', 'ns/vs/'),
     'scope_name': '',
     'tensors': ['ns/c:0', 'ns/vs/d:0', 'vs2/inner/e:0', 'f:0', 'q_1/h:0'],
     'vars': ['v:0', 'vs/w:0', 'vs2/x:0', 'q/v:0', 'z/v_1:0', 'z/v_1']},
    'inheritance': {'info2': ('a', True, 'float64', 'Constant'),
     'info3': True,
     'infos': [('a', False, 'False', 'float64', 'Constant'),
               ('a/b', True, '<_ReuseMode.AUTO_REUSE: 1>', 'float64', 'Constant'),
               ('a/b/c', True, '<_ReuseMode.AUTO_REUSE: 1>', 'float64', 'Constant')],
     'root': ('', '', False, 'float32', None),
     'same': True,
     'values': [[0.5, 0.5], [0.5, 0.5], [0.5], [1.0]],
     'vars': [('a/v:0', 'float64'),
              ('a/b/w:0', 'float64'),
              ('a/b/c/x:0', 'float32'),
              ('a/b/c/y:0', 'float64')]},
    'collections_and_filters': {'global': ['net/a:0', 'net/b:0', 'net/sub/e:0', 'netx:0'],
     'global_net': ['net/a:0', 'net/b:0', 'net/sub/e:0', 'netx:0'],
     'global_net_slash': ['net/a:0', 'net/b:0', 'net/sub/e:0'],
     'inits': [('init_ab', 'NoOp', ['net/a/Assign', 'net/b/Assign']),
               ('init', 'NoOp', []),
               ('init_1',
                'NoOp',
                ['net/a/Assign', 'net/b/Assign', 'net/sub/e/Assign', 'netx/Assign']),
               ('init_2', 'NoOp', ['net/c/Assign'])],
     'local': ['net/c:0'],
     'mine': ['net/d:0'],
     'sub_local': [],
     'sub_scope': ['net/sub/e:0', 'net/sub/e:0'],
     'trainable': ['net/a:0', 'net/c:0', 'net/d:0', 'net/sub/e:0', 'netx:0'],
     'trainable_attr': [True, False, True, True, True, True],
     'trainable_sub': ['net/sub/e:0']},
    'values_and_initializing_from_value': {'ops': [('m/Const', 'Const', [], [], []),
             ('m/a', 'VarHandleOp', [], [], ['loc:@m/a']),
             ('m/a/IsInitialized/VarIsInitializedOp', 'VarIsInitializedOp', ['m/a:0'], [], []),
             ('m/a/Assign', 'AssignVariableOp', ['m/a:0', 'm/Const:0'], [], []),
             ('m/a/Read/ReadVariableOp', 'ReadVariableOp', ['m/a:0'], [], []),
             ('m/b/Initializer/initial_value', 'Const', [], [], ['loc:@m/b']),
             ('m/b', 'VarHandleOp', [], [], ['loc:@m/b']),
             ('m/b/IsInitialized/VarIsInitializedOp', 'VarIsInitializedOp', ['m/b:0'], [], []),
             ('m/b/Assign',
              'AssignVariableOp',
              ['m/b:0', 'm/b/Initializer/initial_value:0'],
              [],
              []),
             ('m/b/Read/ReadVariableOp', 'ReadVariableOp', ['m/b:0'], [], []),
             ('m/c/Initializer/zeros', 'Const', [], [], ['loc:@m/c']),
             ('m/c', 'VarHandleOp', [], [], ['loc:@m/c']),
             ('m/c/IsInitialized/VarIsInitializedOp', 'VarIsInitializedOp', ['m/c:0'], [], []),
             ('m/c/Assign', 'AssignVariableOp', ['m/c:0', 'm/c/Initializer/zeros:0'], [], []),
             ('m/c/Read/ReadVariableOp', 'ReadVariableOp', ['m/c:0'], [], []),
             ('m/d/Initializer/random_uniform/shape', 'Const', [], [], ['loc:@m/d']),
             ('m/d/Initializer/random_uniform/min', 'Const', [], [], ['loc:@m/d']),
             ('m/d/Initializer/random_uniform/max', 'Const', [], [], ['loc:@m/d']),
             ('m/d/Initializer/random_uniform/RandomUniform',
              'RandomUniform',
              ['m/d/Initializer/random_uniform/shape:0'],
              [],
              ['loc:@m/d']),
             ('m/d/Initializer/random_uniform/sub',
              'Sub',
              ['m/d/Initializer/random_uniform/max:0', 'm/d/Initializer/random_uniform/min:0'],
              [],
              ['loc:@m/d']),
             ('m/d/Initializer/random_uniform/mul',
              'Mul',
              ['m/d/Initializer/random_uniform/RandomUniform:0',
               'm/d/Initializer/random_uniform/sub:0'],
              [],
              ['loc:@m/d']),
             ('m/d/Initializer/random_uniform',
              'AddV2',
              ['m/d/Initializer/random_uniform/mul:0', 'm/d/Initializer/random_uniform/min:0'],
              [],
              ['loc:@m/d']),
             ('m/d', 'VarHandleOp', [], [], ['loc:@m/d']),
             ('m/d/IsInitialized/VarIsInitializedOp', 'VarIsInitializedOp', ['m/d:0'], [], []),
             ('m/d/Assign',
              'AssignVariableOp',
              ['m/d:0', 'm/d/Initializer/random_uniform:0'],
              [],
              []),
             ('m/d/Read/ReadVariableOp', 'ReadVariableOp', ['m/d:0'], [], []),
             ('m/e/Initializer/ones', 'Const', [], [], ['loc:@m/e']),
             ('m/e', 'VarHandleOp', [], [], ['loc:@m/e']),
             ('m/e/IsInitialized/VarIsInitializedOp', 'VarIsInitializedOp', ['m/e:0'], [], []),
             ('m/e/Assign', 'AssignVariableOp', ['m/e:0', 'm/e/Initializer/ones:0'], [], []),
             ('m/e/Read/ReadVariableOp', 'ReadVariableOp', ['m/e:0'], [], []),
             ('m/f/Initializer/zeros', 'Const', [], [], ['loc:@m/f']),
             ('m/f', 'VarHandleOp', [], [], ['loc:@m/f']),
             ('m/f/IsInitialized/VarIsInitializedOp', 'VarIsInitializedOp', ['m/f:0'], [], []),
             ('m/f/Assign', 'AssignVariableOp', ['m/f:0', 'm/f/Initializer/zeros:0'], [], []),
             ('m/f/Read/ReadVariableOp', 'ReadVariableOp', ['m/f:0'], [], []),
             ('m/h/Initializer/Const', 'Const', [], [], ['loc:@m/h']),
             ('m/h', 'VarHandleOp', [], [], ['loc:@m/h']),
             ('m/h/IsInitialized/VarIsInitializedOp', 'VarIsInitializedOp', ['m/h:0'], [], []),
             ('m/h/Assign', 'AssignVariableOp', ['m/h:0', 'm/h/Initializer/Const:0'], [], []),
             ('m/h/Read/ReadVariableOp', 'ReadVariableOp', ['m/h:0'], [], [])],
     'values': [[[1.0, 2.0], [3.0, 4.0]],
                [1, 2, 3],
                [[0, 0], [0, 0]],
                [-0.9403424260097086, 0.34094636088917785, 0.8196330934220071],
                [1.0, 1.0],
                False,
                [5, 6]],
     'vars': [('m/a:0', 'float32', [2, 2]),
              ('m/b:0', 'int32', [3]),
              ('m/c:0', 'int32', [2, 2]),
              ('m/d:0', 'float64', [3]),
              ('m/e:0', 'float32', [2]),
              ('m/f:0', 'bool', []),
              ('m/h:0', 'int64', [2])]},
    'regularizer_and_getter': {'loss_values': [1.0],
     'losses': ['r/v/Regularizer/mul:0'],
     'ops': [('r/v/Initializer/ones', 'Const', [], [], ['loc:@r/v']),
             ('r/v', 'VarHandleOp', [], [], ['loc:@r/v']),
             ('r/v/IsInitialized/VarIsInitializedOp', 'VarIsInitializedOp', ['r/v:0'], [], []),
             ('r/v/Assign', 'AssignVariableOp', ['r/v:0', 'r/v/Initializer/ones:0'], [], []),
             ('r/v/Read/ReadVariableOp', 'ReadVariableOp', ['r/v:0'], [], []),
             ('reg', 'Const', [], [], []),
             ('mul/y', 'Const', [], [], []),
             ('mul', 'Mul', ['reg:0', 'mul/y:0'], [], []),
             ('r/v/Regularizer/reg', 'Const', [], [], ['loc:@r/v']),
             ('r/v/Regularizer/mul/y', 'Const', [], [], ['loc:@r/v']),
             ('r/v/Regularizer/mul',
              'Mul',
              ['r/v/Regularizer/reg:0', 'r/v/Regularizer/mul/y:0'],
              [],
              ['loc:@r/v']),
             ('cg/w_x/Initializer/ones', 'Const', [], [], ['loc:@cg/w_x']),
             ('cg/w_x', 'VarHandleOp', [], [], ['loc:@cg/w_x']),
             ('cg/w_x/IsInitialized/VarIsInitializedOp',
              'VarIsInitializedOp',
              ['cg/w_x:0'],
              [],
              []),
             ('cg/w_x/Assign',
              'AssignVariableOp',
              ['cg/w_x:0', 'cg/w_x/Initializer/ones:0'],
              [],
              []),
             ('cg/w_x/Read/ReadVariableOp', 'ReadVariableOp', ['cg/w_x:0'], [], [])],
     'trainable': ['r/v:0'],
     'w': ('cg/w_x:0', False)},
    'control_deps_ignored': {'ops': [('x', 'Const', [], [], []),
             ('cd/v/Initializer/zeros', 'Const', [], [], ['loc:@cd/v']),
             ('cd/v', 'VarHandleOp', [], [], ['loc:@cd/v']),
             ('cd/v/IsInitialized/VarIsInitializedOp',
              'VarIsInitializedOp',
              ['cd/v:0'],
              [],
              []),
             ('cd/v/Assign',
              'AssignVariableOp',
              ['cd/v:0', 'cd/v/Initializer/zeros:0'],
              [],
              []),
             ('cd/v/Read/ReadVariableOp', 'ReadVariableOp', ['cd/v:0'], [], []),
             ('cd/y', 'Const', [], ['x'], [])],
     'y': 'cd/y:0'},
    'reenter_same_object_and_getters': {'calls': [('inner', 'g/h/v'), ('outer', 'g/h/v_in')],
     'graph_vars': ['g/h/v_in:0'],
     'in_other': (True, True),
     'loc': ('loc:0', False, ['loc:0'], ['g/h/v_in:0']),
     'other_vars': ['in_other/w:0'],
     'scopes': [('blk', 'blk/', 'blk/c:0'), ('blk', 'blk/', 'blk_1/c:0')],
     'v': 'g/h/v_in:0'},
    'mlp_forward': {'init_values': [[[-0.7606230974197388, 0.008152544498443604, -0.713706374168396],
                      [0.5576490163803101, -0.3749315142631531, -0.5964688062667847],
                      [0.4128800630569458, 0.05697816610336304, 0.0695224404335022],
                      [-0.4869299829006195, -0.4708063304424286, -0.33851349353790283]],
                     [0.0, 0.0, 0.0],
                     [[-0.3296356201171875, -0.39172226190567017],
                      [0.6968040466308594, 0.5210649967193604],
                      [-0.29538339376449585, 0.3458404541015625]],
                     [0.0, 0.0]],
     'out': [[0.24116751551628113, 0.3757033050060272],
             [0.2625700533390045, -0.172572061419487]],
     'reuse_equal': True,
     'vars': [('mlp/hidden/kernel:0', [4, 3]),
              ('mlp/hidden/bias:0', [3]),
              ('mlp/logits/kernel:0', [3, 2]),
              ('mlp/logits/bias:0', [2])]},
    'plain_variable_colocation': {'names': ['lam:0', 'Variable:0'],
     'ops': [('x', 'Const', [], [], []),
             ('lam/Initializer/zeros', 'Const', [], [], ['loc:@lam']),
             ('lam', 'VarHandleOp', [], [], ['loc:@lam']),
             ('lam/IsInitialized/VarIsInitializedOp', 'VarIsInitializedOp', ['lam:0'], [], []),
             ('lam/Assign', 'AssignVariableOp', ['lam:0', 'lam/Initializer/zeros:0'], [], []),
             ('lam/Read/ReadVariableOp', 'ReadVariableOp', ['lam:0'], [], []),
             ('Variable/Initializer/initial_value', 'Const', [], [], ['loc:@Variable']),
             ('Variable', 'VarHandleOp', [], [], ['loc:@Variable']),
             ('Variable/IsInitialized/VarIsInitializedOp',
              'VarIsInitializedOp',
              ['Variable:0'],
              [],
              []),
             ('Variable/Assign',
              'AssignVariableOp',
              ['Variable:0', 'Variable/Initializer/initial_value:0'],
              [],
              []),
             ('Variable/Read/ReadVariableOp', 'ReadVariableOp', ['Variable:0'], [], [])]},
}
