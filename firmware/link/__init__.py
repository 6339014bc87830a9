"""The serial link: a JSON-RPC 2.0 server, one JSON object per line."""
