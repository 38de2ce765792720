/**
 * Codex runs shell commands as argv arrays (`["bash", "-lc", "ls -la"]`, `["git", "status"]`).
 * The risk engine reads one shell command: the script of a `<shell> -c`/`-lc` call, otherwise the
 * words quoted so the shell would split them back into the same argv.
 */
import { argvToShell } from '@agentgov/core/shell-quote';

const SHELLS = new Set([
  'bash',
  'sh',
  'zsh',
  'dash',
  '/bin/bash',
  '/bin/sh',
  '/bin/zsh',
  '/usr/bin/bash',
  '/usr/bin/zsh',
]);
const SCRIPT_FLAGS = new Set(['-c', '-lc', '-cl']);

export function shellCommandOf(argv: string[]): string {
  const [program, flag, script] = argv;
  if (
    argv.length === 3 &&
    program !== undefined &&
    SHELLS.has(program) &&
    flag !== undefined &&
    SCRIPT_FLAGS.has(flag) &&
    script !== undefined
  )
    return script;
  return argvToShell(argv);
}
