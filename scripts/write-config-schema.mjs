#!/usr/bin/env node
// Writes docs/config.schema.json from core's CONFIG_SCHEMA (run after `npm run build`).
// core/test/config/schema-file.test.ts fails when the committed file drifts from the code.
import { writeFileSync } from 'node:fs';
import { CONFIG_SCHEMA } from '@agentgov/core';

const target = new URL('../docs/config.schema.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(CONFIG_SCHEMA, null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
