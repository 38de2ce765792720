import { Builtins, Cli, UsageError } from 'clipanion';
import { COMMANDS } from './commands/index.js';
import { EXIT } from './exit-codes.js';
import { CLI_VERSION } from './package-info.js';

export interface RunContext {
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

/** What an option's value is, as usage text shows it (`--config PATH`); other options show `VALUE`. */
const PLACEHOLDERS: Record<string, string> = {
  '--config': 'PATH',
  '--repo': 'PATH',
  '--project': 'PATH',
  '--output': 'PATH',
  '--db': 'PATH',
  '--listen': 'HOST:PORT',
  '--http': 'HOST:PORT',
  '--frameworks': 'A,B',
  '--format': 'FORMAT',
  '--log-level': 'LEVEL',
  '--adapter': 'NAME',
  '--scope': 'SCOPE',
  '--since': 'DATE',
  '--until': 'DATE',
  '--by': 'KEY',
  '--store': 'NAME',
};

/** clipanion 3 prints an option's value as `#0`; usage text names it instead, and option tables stay aligned. */
export function namedPlaceholders(text: string): string {
  const named = text.replace(/(--?[\w-]+(?:,--?[\w-]+)*)((?: #\d+)+)/g, (_all, names: string, values: string) => {
    const placeholder =
      names
        .split(',')
        .map((n) => PLACEHOLDERS[n])
        .find(Boolean) ?? 'VALUE';
    return `${names}${values.replace(/#\d+/g, placeholder)}`;
  });
  return realignOptionTables(named);
}

const OPTION_ROW = /^ {2}(-\S.*?) {2,}(\S.*)$/;

/** Re-pads each run of `  --option VALUE   description` rows so the descriptions line up again. */
function realignOptionTables(text: string): string {
  const lines = text.split('\n');
  for (let start = 0; start < lines.length; start += 1) {
    let end = start;
    while (end < lines.length && OPTION_ROW.test(lines[end]!)) end += 1;
    if (end === start) continue;
    const rows = lines.slice(start, end).map((line) => OPTION_ROW.exec(line)!);
    const width = Math.max(...rows.map((m) => m[1]!.length));
    rows.forEach((m, i) => (lines[start + i] = `  ${m[1]!.padEnd(width)}  ${m[2]}`));
    start = end;
  }
  return lines.join('\n');
}

/** clipanion's Cli with named option values in every usage text, help page and usage error. */
class AgentgovCli extends Cli {
  override usage(...args: Parameters<Cli['usage']>): string {
    return namedPlaceholders(super.usage(...args));
  }

  override error(...args: Parameters<Cli['error']>): string {
    return namedPlaceholders(super.error(...args));
  }
}

/** `agentgov -V`, next to clipanion's `-v`/`--version`: the spelling many CLIs use. */
class VersionAliasCommand extends Builtins.VersionCommand {
  static override paths = [['-V']];
}

export function buildCli(): Cli {
  const cli = new AgentgovCli({
    binaryLabel: 'agentgov',
    binaryName: 'agentgov',
    binaryVersion: CLI_VERSION,
    enableCapture: false,
    enableColors: false,
  });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  cli.register(VersionAliasCommand);
  for (const command of COMMANDS) cli.register(command);
  return cli;
}

/**
 * Runs one agentgov command line and resolves to its exit code (see docs/cli.md). Usage errors
 * (unknown command or option, bad value) print the command's usage and return 2.
 */
export async function run(argv: string[], context: RunContext = {}): Promise<number> {
  const cli = buildCli();
  const io = {
    stdin: (context.stdin ?? process.stdin) as NodeJS.ReadStream,
    stdout: (context.stdout ?? process.stdout) as NodeJS.WriteStream,
    stderr: (context.stderr ?? process.stderr) as NodeJS.WriteStream,
    // `help` lists and finds commands from here (it cannot import the list that imports it)
    commands: COMMANDS,
  };
  let command;
  try {
    command = cli.process(argv, io);
  } catch (error) {
    io.stderr.write(cli.error(error as Error, { colored: false }));
    return error instanceof UsageError || (error as { clipanion?: unknown }).clipanion ? EXIT.USAGE : EXIT.INTERNAL;
  }
  return cli.run(command, io);
}
