"""PyInstaller entry point: a plain script, because the bundle needs a file to start from."""

import sys

from ollm_desktop.app import main

if __name__ == "__main__":
    sys.exit(main())
