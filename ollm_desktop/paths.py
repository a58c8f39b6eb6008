"""Where the app keeps its data, config and logs (platformdirs; overridable)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from platformdirs import PlatformDirs

from ollm_desktop import APP_NAME

DATA_ENV = "OLLM_DATA_DIR"


@dataclass(frozen=True)
class AppPaths:
    data_dir: Path
    config_dir: Path
    log_dir: Path

    @property
    def database(self) -> Path:
        return self.data_dir / "ollm-desktop.sqlite3"

    @property
    def settings_file(self) -> Path:
        return self.config_dir / "settings.json"

    @property
    def backup_dir(self) -> Path:
        return self.data_dir / "backups"

    def ensure(self) -> None:
        """Create the folders readable by the user only."""
        for folder in (self.data_dir, self.config_dir, self.log_dir, self.backup_dir):
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)


def app_paths(data_dir: str | os.PathLike[str] | None = None) -> AppPaths:
    """``--data-dir`` wins, then ``$OLLM_DATA_DIR``; both keep config and logs inside it."""
    override = data_dir or os.environ.get(DATA_ENV)
    if override:
        root = Path(override).expanduser().resolve()
        return AppPaths(root, root / "config", root / "logs")
    dirs = PlatformDirs(APP_NAME, appauthor=False)
    return AppPaths(
        Path(dirs.user_data_dir), Path(dirs.user_config_dir), Path(dirs.user_log_dir)
    )
