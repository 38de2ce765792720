#!/usr/bin/env node
// Entry of `node cli <command>` (package.json "main") and of the `agentgov` bin.
import { run } from './cli.js';

process.exitCode = await run(process.argv.slice(2));
