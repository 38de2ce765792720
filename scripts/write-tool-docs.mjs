#!/usr/bin/env node
// Rewrites the generated blocks of docs/tools.md from each tool's defineTool (run after `npm run build`);
// the prose around them is hand-written. server/test/tools/tool-docs.test.ts fails when the committed
// file drifts from this output.
import { readFileSync, writeFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { TOOLS } from '../server/dist/src/tools/index.js';
import { updateToolBlocks } from '../server/dist/src/tools/tool-docs.js';

const target = new URL('../docs/tools.md', import.meta.url);
const updated = updateToolBlocks(readFileSync(target, 'utf8'), TOOLS);
const options = { ...(await prettier.resolveConfig(target.pathname)), filepath: target.pathname };
writeFileSync(target, await prettier.format(updated, options));
console.log(`wrote ${target.pathname}`);
