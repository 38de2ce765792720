import { Builtins, Cli, UsageError } from 'clipanion';
import { COMMANDS } from './commands/index.js';
import { EXIT } from './exit-codes.js';
import { CLI_VERSION } from './package-info.js';

export interface RunContext {
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

export function buildCli(): Cli {
  const cli = new Cli({ binaryLabel: 'agentgov', binaryName: 'agentgov', binaryVersion: CLI_VERSION, enableCapture: false, enableColors: false });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
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
