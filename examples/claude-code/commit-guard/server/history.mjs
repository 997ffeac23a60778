// A tiny MCP server over stdio that would answer "commit history" requests.
process.stdin.on("data", () => {});
