#!/usr/bin/env python3
"""Validates notebooks with nbformat (the Jupyter project's own schema): exit 0 when every file
named on the command line is a valid nbformat 4 notebook, else 1 with the reason on stderr."""
import json
import sys
import warnings

import nbformat


def main(paths):
    warnings.simplefilter("error")
    failed = 0
    for path in paths:
        try:
            # nbformat.read would repair what it can (cell ids, with a warning): check the file as
            # it is, and count a warning as a failure.
            with open(path, encoding="utf-8") as f:
                nb = nbformat.from_dict(json.load(f))
            if nb.nbformat != 4:
                raise ValueError("nbformat %s, not 4" % nb.nbformat)
            nbformat.validate(nb)
        except Exception as exc:  # any reason a file is not a valid notebook
            sys.stderr.write("%s: %s: %s\n" % (path, type(exc).__name__, exc))
            failed = 1
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
