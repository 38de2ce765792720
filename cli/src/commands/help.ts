import { Command, Option, type BaseContext, type CommandClass } from 'clipanion';
import { AgentgovCommand, EXIT } from './base.js';

/**
 * The commands the running CLI registered: `run` (cli.ts) passes them in the context, so this module
 * need not import the command list, which imports it.
 */
function registeredCommands(context: BaseContext): CommandClass[] {
  const commands = (context as BaseContext & { commands?: CommandClass[] }).commands;
  if (!commands) throw new Error('help needs the registered commands in its context (cli.ts run() passes them)');
  return commands;
}

/** Commands registered under `prefix` (`['config']` → config init, show, validate). */
export function commandsUnder(commands: readonly CommandClass[], prefix: string[]): CommandClass[] {
  return commands.filter((c) =>
    (c.paths ?? []).some((path) => path.length > prefix.length && prefix.every((word, i) => path[i] === word)),
  );
}

/** The lines of a command group's help: each subcommand with its one-line description. */
export function groupHelp(commands: readonly CommandClass[], prefix: string[]): string {
  const rows = commandsUnder(commands, prefix).map((c) => [
    `agentgov ${c.paths![0]!.join(' ')}`,
    c.usage?.description ?? '',
  ]);
  const width = Math.max(...rows.map(([name]) => name!.length));
  const lines = rows.map(([name, description]) => `  ${name!.padEnd(width)}  ${description}`);
  return (
    `agentgov ${prefix.join(' ')}: one of\n\n` +
    `${lines.join('\n')}\n\nRun \`agentgov help ` +
    `${prefix.join(' ')} <command>\` (or \`<command> --help\`) for one in full.\n`
  );
}

/** `agentgov help [command ...]`: the full help of one command or group, or the list of every command. */
export class HelpCommand extends AgentgovCommand {
  static override paths = [['help']];
  static override usage = Command.Usage({
    description: 'Show the help of a command or a command group, or list every command',
    examples: [
      ['List every command', '$0 help'],
      ['Full help of one command', '$0 help replay'],
      ['The config commands', '$0 help config'],
    ],
  });

  names = Option.Rest();

  async run(): Promise<number> {
    const COMMANDS = registeredCommands(this.context);
    if (this.names.length === 0) {
      this.context.stdout.write(this.cli.usage(null));
      return EXIT.OK;
    }
    if (commandsUnder(COMMANDS, this.names).length > 0) {
      this.context.stdout.write(groupHelp(COMMANDS, this.names));
      return EXIT.OK;
    }
    const exact = COMMANDS.find((c) => (c.paths ?? []).some((path) => path.join(' ') === this.names.join(' ')));
    if (exact) {
      this.context.stdout.write(this.cli.usage(exact, { detailed: true }));
      return EXIT.OK;
    }
    const known = COMMANDS.flatMap((c) => (c.paths ?? []).map((path) => path.join(' '))).filter(
      (name) => !name.startsWith('-'),
    );
    this.context.stderr.write(
      `error [E_INVALID_ARGUMENT]: no command '${this.names.join(' ')}'; commands: ${known.sort().join(', ')}\n`,
    );
    return EXIT.USAGE;
  }
}

/** `agentgov config` (and `config --help`): the config commands, since the group itself does nothing. */
export class ConfigGroupCommand extends AgentgovCommand {
  static override paths = [['config']];
  static override usage = Command.Usage({
    category: 'Configuration',
    description: 'The configuration commands: init, show, validate (`agentgov help config`)',
    details: `
      \`agentgov config init\` writes the default configuration, \`agentgov config show\` prints the effective one with
      where each value came from, \`agentgov config validate\` checks a file against the schema. Each has its own
      \`--help\`.`,
  });

  async run(): Promise<number> {
    const COMMANDS = registeredCommands(this.context);
    this.context.stderr.write(groupHelp(COMMANDS, ['config']));
    return EXIT.USAGE;
  }
}
