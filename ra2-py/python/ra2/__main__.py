"""`python -m ra2`: the same as `ra2 lint`, with the same flags, output and exit codes."""

import sys

from ra2._ra2 import _main


def main() -> int:
    """Run `ra2 lint` with the command line's arguments and return its exit status."""
    # The linter writes to the process's standard streams directly: flush Python's first.
    sys.stdout.flush()
    sys.stderr.flush()
    return _main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
