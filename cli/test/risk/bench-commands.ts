import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Every command of the risk bench (bench/risk over risk-commands.jsonl), once each. */
export const BENCH_COMMANDS = readFileSync(
  fileURLToPath(new URL('../../../test/fixtures/risk/bench-commands.jsonl', import.meta.url)),
  'utf8',
)
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as string);
