"""``python -m minitf`` — see minitf.cli."""
import sys

from minitf.cli import main

sys.exit(main())
