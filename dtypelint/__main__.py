"""`python -m dtypelint` == `dtypelint`."""

import sys

from dtypelint.cli import main

if __name__ == "__main__":
    sys.exit(main())
