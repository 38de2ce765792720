export { buildCli, run, type RunContext } from './cli.js';
export { EXIT, exitCodeForError } from './exit-codes.js';
export { bundledPlugins, startCliHost } from './host.js';
