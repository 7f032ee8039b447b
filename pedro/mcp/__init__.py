"""MCP both ways: pedro's agents as tools of an MCP client (server.py), and MCP servers' tools for pedro's agents
(client.py); the official `mcp` SDK is imported only here, when one of them is used."""
