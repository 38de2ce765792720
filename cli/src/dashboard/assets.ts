import { join } from 'node:path';
import { CLI_PACKAGE_DIR } from '../package-info.js';

/** Where scripts/build-dashboard.mjs writes the page (index.html, app.js, app.css): part of the published files. */
export const dashboardAssetsDir = (): string => join(CLI_PACKAGE_DIR, 'dist', 'dashboard');
