"""tf.app (tf.compat.v1.app): `run` and `flags` (minitf.platform.flags), over absl.app as in
TensorFlow 1."""
import sys as _sys

from absl.app import run as _absl_run

from minitf.platform import flags  # noqa: F401 - tf.app.flags


def _parse_known_flags(argv):
    """Parses the flags argv defines and returns the rest (absl would exit on an unknown
    flag; TF 1 scripts pass theirs on to main)."""
    return flags.FLAGS(_sys.argv if argv is None else argv, known_only=True)


def run(main=None, argv=None):
    """Parses the command line (`argv`, default sys.argv) into tf.flags.FLAGS and calls
    `main(remaining argv)` (default: the __main__ module's `main`), then exits with main's
    return value, as tf.compat.v1.app.run (absl.app.run with unknown flags tolerated).
    Raises SystemExit, like absl: with main's result, or 1 after printing a flag error."""
    main = main or _sys.modules["__main__"].main
    _absl_run(main=main, argv=argv, flags_parser=_parse_known_flags)
