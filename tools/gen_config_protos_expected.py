"""Writes tests/fixtures/config_protos_expected.json with real TensorFlow 2.21 (developer tool):

    /opt/tfvenv/bin/python tools/gen_config_protos_expected.py
"""
from tf_fixture import tf, write

import config_protos_cases as cases


def main():
    configs = cases.config_bytes(tf)
    write("config_protos_expected.json", {
        "configs": configs,
        "parse_back": cases.parse_back(tf, configs["threads_and_options"]),
        "adam": cases.adam_variable_names(tf),
        "init_scope": cases.init_scope_names(tf),
    })


if __name__ == "__main__":
    main()
