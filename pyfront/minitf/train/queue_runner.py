"""tf.train.queue_runner: QueueRunner, add_queue_runner, start_queue_runners."""
from minitf.training.queue_runner_impl import (  # noqa: F401
    QueueRunner, add_queue_runner, start_queue_runners)
