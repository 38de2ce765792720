/**
 * Quoting words for a POSIX shell, so that the shell splits the text back into the same words.
 * Used wherever an argv array becomes one command line: the risk engine reads `["bash", "-lc",
 * "rm -rf ~"]` as `bash -lc 'rm -rf ~'` (joined with spaces it would be `bash -lc rm` and two
 * positional arguments), and the hook command `init` writes.
 */
const SHELL_SAFE = /^[A-Za-z0-9_./@%+=:,-]+$/;

/** `word` as the shell reads it back: unchanged when it needs no quotes, else single-quoted. */
export function shellQuote(word: string): string {
  return SHELL_SAFE.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** An argv array as one command line that the shell splits back into the same words. */
export function argvToShell(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}
