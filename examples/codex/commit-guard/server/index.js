// A stand-in MCP server: the example never runs it.
process.stdin.pipe(process.stdout);
