"""Entry point: ``python -m bench.memory``."""

import sys

from bench.memory.cli import main

sys.exit(main())
