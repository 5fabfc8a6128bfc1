"""The browser game: ``scoundrel serve`` (FastAPI), its pages, scripts and styles."""
