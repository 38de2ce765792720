// Command-line options of a bench script: node:util's parseArgs, plus `--help` (prints the script's leading
// comment, which is its usage) and a one-line error naming a bad option instead of a stack trace.
//
//   const { values } = benchArgs(import.meta.url, { options: { runs: { type: 'string', default: '20' } } });
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The leading `//` comment of a script (after its `#!` line), without the comment markers. */
export function usageOf(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  if (lines[0]?.startsWith('#!')) lines.shift();
  const usage = [];
  for (const line of lines) {
    if (!line.startsWith('//')) break;
    usage.push(line.replace(/^\/\/ ?/, ''));
  }
  return usage.join('\n').trim();
}

/**
 * parseArgs(config) for the script at `scriptUrl` (import.meta.url). `--help` prints its usage and exits 0; an
 * unknown option, a missing value or a stray argument prints the error and how to get the usage, and exits 2.
 */
export function benchArgs(scriptUrl, config) {
  const file = fileURLToPath(scriptUrl);
  const name = relative(process.cwd(), file) || file;
  const options = { ...config.options, help: { type: 'boolean', default: false } };
  let parsed;
  try {
    parsed = parseArgs({ ...config, options });
  } catch (error) {
    process.stderr.write(`${name}: ${error.message}\nrun \`node ${name} --help\` for its options\n`);
    process.exit(2);
  }
  if (parsed.values.help) {
    process.stdout.write(`${usageOf(file) || `node ${name}`}\n`);
    process.exit(0);
  }
  delete parsed.values.help;
  return parsed;
}
