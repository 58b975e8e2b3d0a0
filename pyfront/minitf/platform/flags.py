"""tf.flags / tf.app.flags (tf.compat.v1.flags): absl.flags, which TensorFlow's flags module
re-exports, with TensorFlow 1's two differences:

* DEFINE_string / DEFINE_boolean (DEFINE_bool) / DEFINE_float / DEFINE_integer also take the
  TF 1.x keyword names flag_name, default_value and docstring (for name, default, help),
  with a warning;
* FLAGS parses sys.argv the first time an unparsed flag value is read, where absl raises
  UnparsedFlagAccessError.

Everything else (DEFINE_enum, DEFINE_list, DEFINE_multi_string, flag validators,
mark_flag_as_required, FlagValues, the Error classes) is absl's, unchanged.
"""
import functools as _functools
import logging as _logging
import sys as _sys

from absl.flags import *  # noqa: F401,F403 - tf.flags is absl.flags
from absl import flags as _absl_flags

_absl_flags.disclaim_key_flags()

_OLD_NAMES = {"flag_name": "name", "default_value": "default", "docstring": "help"}


def _accept_old_names(define):
    """`define` that also takes TF 1.x's keyword names (see the module's docstring)."""
    @_functools.wraps(define)
    def wrapper(*args, **kwargs):
        renamed = [k for k in _OLD_NAMES if k in kwargs]
        for old in renamed:
            kwargs[_OLD_NAMES[old]] = kwargs.pop(old)
        if renamed:
            _logging.warning(
                "Use of the keyword argument names (flag_name, default_value, docstring) is "
                "deprecated, please use (name, default, help) instead.")
        return define(*args, **kwargs)
    return wrapper


class _ParseOnReadFlagValues:
    """absl's FLAGS, parsing sys.argv on the first read of a flag before any parse (TF 1's
    tf.flags.FLAGS). Every other attribute, item and call goes to absl's object."""

    def __init__(self, flag_values):
        self.__dict__["_wrapped"] = flag_values

    def __getattr__(self, name):
        wrapped = self.__dict__["_wrapped"]
        if not wrapped.is_parsed():
            wrapped(_sys.argv)
        return getattr(wrapped, name)

    def __setattr__(self, name, value):
        setattr(self.__dict__["_wrapped"], name, value)

    def __delattr__(self, name):
        delattr(self.__dict__["_wrapped"], name)

    def __dir__(self):
        return dir(self.__dict__["_wrapped"])

    def __getitem__(self, name):
        return self.__dict__["_wrapped"][name]

    def __setitem__(self, name, flag):
        self.__dict__["_wrapped"][name] = flag

    def __contains__(self, name):
        return name in self.__dict__["_wrapped"]

    def __len__(self):
        return len(self.__dict__["_wrapped"])

    def __iter__(self):
        return iter(self.__dict__["_wrapped"])

    def __str__(self):
        return str(self.__dict__["_wrapped"])

    def __call__(self, *args, **kwargs):
        return self.__dict__["_wrapped"](*args, **kwargs)


DEFINE_string = _accept_old_names(_absl_flags.DEFINE_string)
DEFINE_boolean = _accept_old_names(_absl_flags.DEFINE_boolean)
DEFINE_bool = DEFINE_boolean
DEFINE_float = _accept_old_names(_absl_flags.DEFINE_float)
DEFINE_integer = _accept_old_names(_absl_flags.DEFINE_integer)
FLAGS = _ParseOnReadFlagValues(_absl_flags.FLAGS)
