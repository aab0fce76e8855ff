#!/usr/bin/env python3
"""Validates notebooks with nbformat (the Jupyter project's own schema): exit 0 when every file
named on the command line is a valid nbformat 4 notebook, else 1 with the reason on stderr."""
import sys

import nbformat


def main(paths):
    failed = 0
    for path in paths:
        try:
            nb = nbformat.read(path, as_version=nbformat.NO_CONVERT)
            if nb.nbformat != 4:
                raise ValueError("nbformat %s, not 4" % nb.nbformat)
            nbformat.validate(nb)
        except Exception as exc:  # any reason a file is not a valid notebook
            sys.stderr.write("%s: %s: %s\n" % (path, type(exc).__name__, exc))
            failed = 1
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
