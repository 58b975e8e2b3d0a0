"""tf.io.gfile: TensorFlow's file functions under their TF2 names."""
from minitf.platform.gfile import GFile, get_registered_schemes, join  # noqa: F401
from minitf.platform.gfile import copy_v2 as copy  # noqa: F401
from minitf.platform.gfile import create_dir_v2 as mkdir  # noqa: F401
from minitf.platform.gfile import delete_file_v2 as remove  # noqa: F401
from minitf.platform.gfile import delete_recursively_v2 as rmtree  # noqa: F401
from minitf.platform.gfile import file_exists_v2 as exists  # noqa: F401
from minitf.platform.gfile import get_matching_files_v2 as glob  # noqa: F401
from minitf.platform.gfile import is_directory_v2 as isdir  # noqa: F401
from minitf.platform.gfile import list_directory_v2 as listdir  # noqa: F401
from minitf.platform.gfile import recursive_create_dir_v2 as makedirs  # noqa: F401
from minitf.platform.gfile import rename_v2 as rename  # noqa: F401
from minitf.platform.gfile import stat_v2 as stat  # noqa: F401
from minitf.platform.gfile import walk_v2 as walk  # noqa: F401
