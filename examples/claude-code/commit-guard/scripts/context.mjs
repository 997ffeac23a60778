// Prints the current branch so Claude starts the session knowing it.
import { execFileSync } from "node:child_process";
const branch = execFileSync("git", ["rev-parse", "--abbrev-ref", "HEAD"]).toString().trim();
console.log(`You are on branch ${branch}.`);
