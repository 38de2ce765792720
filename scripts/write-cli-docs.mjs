#!/usr/bin/env node
// Rewrites the generated blocks of docs/cli.md (exit codes, command reference) from the commands' own
// metadata (run after `npm run build`); the prose around them is hand-written.
// cli/test/docs/cli-docs.test.ts fails when the committed file drifts from this output.
import { readFileSync, writeFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { updateCliBlocks } from '../cli/dist/src/docs/command-reference.js';

const target = new URL('../docs/cli.md', import.meta.url);
const updated = updateCliBlocks(readFileSync(target, 'utf8'));
const options = { ...(await prettier.resolveConfig(target.pathname)), filepath: target.pathname };
writeFileSync(target, await prettier.format(updated, options));
console.log(`wrote ${target.pathname}`);
