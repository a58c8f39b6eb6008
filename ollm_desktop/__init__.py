"""ollm-desktop: a local Ollama chat whose context engine never loses a message."""

__version__ = "0.1.0"
APP_NAME = "ollm-desktop"
APP_ID = "io.github.ollm_desktop.OllmDesktop"
