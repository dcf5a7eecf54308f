"""The room server: people on separate devices play one game of the
engine, and the server owns the dice (issue 22; docs/protocol.md).

server -> engine only: nothing here imports firmware/, tools/ or tests/."""
