/**
 * `main.ts` routes `agentgov gate ...` here before loading clipanion and the command registry,
 * which together cost more than the gate's whole start-up budget (see bench/gate). Only a
 * well-formed `gate --stdin [--format F]` line takes this path; anything else (`--help`, an
 * unknown option, a bad format) returns undefined and goes through the full CLI, which prints
 * the usual usage error.
 */
import { parseArgs } from 'node:util';
import { runGate } from './run-gate.js';
import { GATE_FORMATS, type GateFormat } from './verdict-format.js';

export async function gateFastPath(args: string[]): Promise<number | undefined> {
  let values: { stdin?: boolean; format?: string };
  try {
    ({ values } = parseArgs({ args, options: { stdin: { type: 'boolean' }, format: { type: 'string' } }, strict: true, allowPositionals: false }));
  } catch {
    return undefined;
  }
  const format = GATE_FORMATS.find((f) => f === (values.format ?? 'agentx-code'));
  if (!values.stdin || !format) return undefined;
  return runGate(format as GateFormat, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
}
