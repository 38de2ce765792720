/**
 * The shell command an agent hook runs to reach the gate: the absolute path of the agentgov that
 * runs `init`, so the hook never depends on the agent's PATH. An entry point that is not
 * executable by itself (a checkout's `dist/src/main.js`) is run through this Node binary.
 */
import { accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';

const SHELL_SAFE = /^[A-Za-z0-9_./@%+=:,-]+$/;

export function shellQuote(word: string): string {
  return SHELL_SAFE.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function gateHookCommand(entry: string = process.argv[1] ?? '', node: string = process.execPath): string {
  const binary = resolve(entry);
  const launcher = isExecutable(binary) ? [binary] : [node, binary];
  return [...launcher, 'gate', '--stdin'].map(shellQuote).join(' ');
}
