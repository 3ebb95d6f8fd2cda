#!/usr/bin/env node
// The `little` executable. The shebang lives only here: in a file with exports it breaks d.ts output.
import { runCli } from "./cli.js";

process.exitCode = await runCli(process.argv.slice(2));
