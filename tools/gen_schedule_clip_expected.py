"""Writes tests/fixtures/schedule_clip_expected.json: TensorFlow 2.21 running
tests/python/schedule_clip_cases.py (developer tool):

    /opt/tfvenv/bin/python tools/gen_schedule_clip_expected.py
"""

import tf_fixture
from tf_fixture import tf

import schedule_clip_cases


def main():
    tf_fixture.write("schedule_clip_expected.json",
                     {"schedules": schedule_clip_cases.run_schedules(tf),
                      "clipping": schedule_clip_cases.run_clipping(tf)})


if __name__ == "__main__":
    main()
