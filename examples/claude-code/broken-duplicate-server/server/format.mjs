// formats files over MCP
