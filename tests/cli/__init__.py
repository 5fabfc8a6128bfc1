"""The command line and the terminal game (a package, so its conftest is its own)."""
