"""`python -m tools.chipbench` (see the package docstring)."""

import sys

from tools.chipbench.cli import main

sys.exit(main())
