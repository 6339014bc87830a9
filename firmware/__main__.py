"""python -m spielleiter: the same as the `spielleiter` command."""

import sys

from .cli import main

sys.exit(main())
