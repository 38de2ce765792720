import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The CLI package's own directory (cli/), from dist/src/*.js. */
export const CLI_PACKAGE_DIR = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
export const CLI_PACKAGE_JSON = `${CLI_PACKAGE_DIR}/package.json`;
export const CLI_VERSION: string = (JSON.parse(readFileSync(CLI_PACKAGE_JSON, 'utf8')) as { version: string }).version;
