#!/usr/bin/env node
// Writes docs/errors.md from core's ERROR_CATALOG (run after `npm run build`).
// core/test/errors/docs.test.ts fails when the committed file drifts from the catalog.
import { writeFileSync } from 'node:fs';
import { renderErrorCatalogMarkdown } from '@agentgov/core';

const target = new URL('../docs/errors.md', import.meta.url);
writeFileSync(target, renderErrorCatalogMarkdown());
console.log(`wrote ${target.pathname}`);
