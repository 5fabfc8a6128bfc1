"""Alembic's entry point: run the revisions on the connection that ``migrate`` hands over.

Run through :func:`scoundrel.store.migrate` (the server does at start); the ``alembic``
command line is not needed, and is not set up.
"""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
