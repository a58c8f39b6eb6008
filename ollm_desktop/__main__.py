"""``python -m ollm_desktop`` works like the ``ollm-desktop`` command."""

from ollm_desktop.app import main

raise SystemExit(main())
