#!/usr/bin/env node
// A stand-in MCP server: it only echoes its arguments. vouch never runs it.
const args = process.argv.slice(2);
process.stderr.write(`notes-server started with ${JSON.stringify(args)}\n`);
process.stdin.pipe(process.stdout);
