"""The schema's history as Alembic revisions; :func:`scoundrel.store.migrate` applies them."""
