"""tf.train (TF1): graph I/O helpers.

Only write_graph lives here for now; other engineers add their own exports.
"""
import os

from google.protobuf import text_format

from minitf.framework import ops
from minitf.ops.moving_averages import ExponentialMovingAverage  # noqa: F401


def _to_text(graph_def):
    # TensorFlow passes float_format='' (shortest round-trip floats); protobuf
    # 7 dropped that argument and formats floats that way by default.
    try:
        return text_format.MessageToString(graph_def, float_format="")
    except TypeError:
        return text_format.MessageToString(graph_def)


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """Writes a graph proto to `logdir/name` (tf.io.write_graph / tf.train.write_graph).

    Args:
      graph_or_graph_def: a Graph (its as_graph_def() is written) or a
        GraphDef proto.
      logdir: directory, created (with parents) when missing.
      name: file name inside logdir.
      as_text: True writes protobuf text format exactly as TensorFlow does
        (text_format.MessageToString, shortest round-trip floats); False writes the
        deterministic binary serialization.
    Returns:
      The path written, os.path.join(logdir, name).
    Raises:
      OSError when the directory or file cannot be written.
    """
    if isinstance(graph_or_graph_def, ops.Graph):
        graph_def = graph_or_graph_def.as_graph_def()
    else:
        graph_def = graph_or_graph_def
    os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, name)
    if as_text:
        data = _to_text(graph_def).encode("utf-8")
    else:
        data = graph_def.SerializeToString(deterministic=True)
    tmp = "%s.tmp%d" % (path, os.getpid())
    with open(tmp, "wb") as f:  # atomic like TensorFlow's atomic_write_string_to_file
        f.write(data)
    os.replace(tmp, path)
    return path

# --- optimizers and the global step ---
from minitf.training.optimizer import Optimizer  # noqa: F401,E402
from minitf.training.adadelta import AdadeltaOptimizer  # noqa: F401,E402
from minitf.training.adagrad import AdagradOptimizer  # noqa: F401,E402
from minitf.training.adagrad_da import AdagradDAOptimizer  # noqa: F401,E402
from minitf.training.adam import AdamOptimizer  # noqa: F401,E402
from minitf.training.ftrl import FtrlOptimizer  # noqa: F401,E402
from minitf.training.gradient_descent import GradientDescentOptimizer  # noqa: F401,E402
from minitf.training.momentum import MomentumOptimizer  # noqa: F401,E402
from minitf.training.proximal_adagrad import ProximalAdagradOptimizer  # noqa: F401,E402
from minitf.training.proximal_gradient_descent import (  # noqa: F401,E402
    ProximalGradientDescentOptimizer)
from minitf.training.rmsprop import RMSPropOptimizer  # noqa: F401,E402
from minitf.training.learning_rate_decay import (  # noqa: F401,E402
    cosine_decay, cosine_decay_restarts, exponential_decay, inverse_time_decay,
    linear_cosine_decay, natural_exp_decay, noisy_linear_cosine_decay, piecewise_constant,
    piecewise_constant as piecewise_constant_decay,
    polynomial_decay)
from minitf.training.training_util import (  # noqa: F401,E402
    create_global_step, get_global_step, get_or_create_global_step, global_step)

# --- checkpoints: Saver, the state file, reading checkpoints by name ---
from minitf.training.saver import Saver, export_meta_graph, import_meta_graph  # noqa: F401,E402,E501
from minitf.training.checkpoint_management import (  # noqa: F401,E402
    checkpoint_exists, checkpoints_iterator, generate_checkpoint_state_proto,
    get_checkpoint_mtimes, get_checkpoint_state, latest_checkpoint, remove_checkpoint,
    update_checkpoint_state)
from minitf.training.checkpoint_utils import (  # noqa: F401,E402
    init_from_checkpoint, list_variables, load_checkpoint, load_variable)
from minitf.training.py_checkpoint_reader import NewCheckpointReader  # noqa: F401,E402
from minitf.training.checkpoint_state_pb2 import CheckpointState  # noqa: F401,E402
from minitf.core.protobuf.saver_pb2 import SaverDef  # noqa: F401,E402

# --- training sessions: MonitoredSession, Scaffold, hooks ---
from minitf.training.coordinator import Coordinator, LooperThread  # noqa: F401,E402
from minitf.training.training_util import assert_global_step  # noqa: F401,E402
from minitf.training.session_manager import SessionManager  # noqa: F401,E402
from minitf.training.session_run_hook import (  # noqa: F401,E402
    SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues)
from minitf.training.basic_session_run_hooks import (  # noqa: F401,E402
    CheckpointSaverHook, CheckpointSaverListener, FeedFnHook, FinalOpsHook,
    GlobalStepWaiterHook, LoggingTensorHook, NanLossDuringTrainingError, NanTensorHook,
    SecondOrStepTimer, StepCounterHook, StopAtStepHook, SummarySaverHook)
from minitf.summary.writer import FileWriterCache as SummaryWriterCache  # noqa: F401,E402
from minitf.training.monitored_session import (  # noqa: F401,E402
    ChiefSessionCreator, MonitoredSession, MonitoredTrainingSession, Scaffold, SessionCreator,
    SingularMonitoredSession, WorkerSessionCreator)
from minitf.core.protobuf.cluster_pb2 import ClusterDef, JobDef  # noqa: F401,E402

# --- queue runners and the queue-based input pipelines ---
from minitf.train import queue_runner  # noqa: F401,E402
from minitf.training.queue_runner_impl import (  # noqa: F401,E402
    QueueRunner, add_queue_runner, start_queue_runners)
from minitf.training.input import (  # noqa: F401,E402
    batch, batch_join, input_producer, limit_epochs, match_filenames_once, maybe_batch,
    maybe_batch_join, maybe_shuffle_batch, maybe_shuffle_batch_join, range_input_producer,
    shuffle_batch, shuffle_batch_join, slice_input_producer, string_input_producer)

# --- records: tf.train.Example protos (core/example/*.proto) ---
from minitf.core.example.example_pb2 import Example, SequenceExample  # noqa: F401,E402
from minitf.core.example.feature_pb2 import (  # noqa: F401,E402
    BytesList, Feature, FeatureList, FeatureLists, Features, FloatList, Int64List)
