from .cli.main import main

# Guarded: worker processes started with "spawn" (the web game's analyses) import the main
# module again, and must not run the command a second time.
if __name__ == "__main__":
    raise SystemExit(main())
