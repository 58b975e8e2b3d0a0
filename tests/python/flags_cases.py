"""Command lines for tests/python/flags_script.py (see test_flags.py)."""
CASES = {
    "defaults": [],
    "all_flags": ["--data_dir=/d", "--batch_size", "8", "--learning_rate=0.5", "--notrain",
                  "--mode=slow", "--layers=1,2,3", "--tag=a", "--tag", "b", "--old_style=y"],
    "positional_and_unknown": ["pos1", "--unknown_flag=3", "--batch_size=4", "pos2"],
    "double_dash": ["--batch_size=2", "--", "--batch_size=9"],
    "bad_integer": ["--batch_size=abc"],
    "below_bound": ["--batch_size=0"],
    "bad_enum": ["--mode=medium"],
    "read_before_run": ["--read-before-run", "--batch_size=5"],
    "bool_forms": ["--train=false", "--mode", "fast"],
}
