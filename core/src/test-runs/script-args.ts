/**
 * Reading a package.json script as a shell would, for a runner that finds its own command there (`mocha …`, `node
 * --test …`) and reads that command's options. Parsing is shell-quote's: quotes and escapes as a POSIX shell reads
 * them, `&&`, `||`, `;`, `|` and `&` between commands.
 */
import { parse } from 'shell-quote';

/**
 * The simple commands of a script (`a && b || c; d | e`), each its words with quotes removed and nothing expanded:
 * `$VAR` stays as written, a glob stays its pattern. Any operator ends a command (a redirection's file starts the next
 * one, which names no runner); a comment ends the script.
 */
export function scriptCommands(script: string): string[][] {
  const commands: string[][] = [[]];
  for (const entry of parse(script, (name) => `$${name}`)) {
    if (typeof entry === 'string') commands.at(-1)!.push(entry);
    else if ('comment' in entry) break;
    else if (entry.op === 'glob') commands.at(-1)!.push(entry.pattern);
    else commands.push([]);
  }
  return commands.filter((words) => words.length > 0);
}

/** The words after the program of the first command of `script` whose word `isProgram` accepts; undefined if none. */
export function argsOfScript(
  script: string,
  isProgram: (word: string, rest: string[]) => boolean,
): string[] | undefined {
  for (const words of scriptCommands(script)) {
    const at = words.findIndex((word, i) => isProgram(word, words.slice(i + 1)));
    if (at >= 0) return words.slice(at + 1);
  }
  return undefined;
}

/** An argument as `[flag, inline value]`: `--name=value` gives `['--name', 'value']`, any other `[arg, undefined]`. */
export function splitInlineValue(arg: string): [string, string | undefined] {
  const at = arg.indexOf('=');
  return arg.startsWith('--') && at > 2 ? [arg.slice(0, at), arg.slice(at + 1)] : [arg, undefined];
}
