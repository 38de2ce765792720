/**
 * docs/cli.md's generated blocks: the exit-code table (from `EXIT_MEANINGS`) and the command
 * reference (from every registered command's own clipanion usage: path, options, description,
 * details, examples), between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`. The prose
 * around them is written by hand. `npm run docs:generate` rewrites them (scripts/write-cli-docs.mjs);
 * cli/test/docs/cli-docs.test.ts fails when the committed file differs from that.
 */
import { buildCli, namedPlaceholders } from '../cli.js';
import { COMMANDS } from '../commands/index.js';
import { EXIT_MEANINGS } from '../exit-codes.js';

/** `|` and line breaks would end a table cell. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/** clipanion's details are indented template text: one paragraph per blank-line-separated block. */
function paragraphs(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((block) => block.replace(/\s*\n\s*/g, ' ').trim())
    .join('\n\n');
}

/** The exit-code table every command follows. */
export function renderExitCodes(): string {
  const rows = Object.entries(EXIT_MEANINGS).map(([code, meaning]) => `| ${code} | ${cell(meaning)} |`);
  return ['| code | meaning |', '| --- | --- |', ...rows].join('\n');
}

/** One section per command, in registration order, from its clipanion definition. */
export function renderCommandReference(): string {
  const cli = buildCli();
  const definitions = new Map(cli.definitions({ colored: false }).map((d) => [d.path, d]));
  const sections: string[] = [];
  for (const command of COMMANDS) {
    const definition = definitions.get(`agentgov ${command.paths![0]!.join(' ')}`)!;
    const usage = cli.usage(command, { colored: false, prefix: '' }).replace(/\s+/g, ' ').trim();
    const lines = [`### \`${definition.path}\``, '', '```', usage, '```', ''];
    if (definition.description) lines.push(`${definition.description.trim()}.`.replace(/\.\.$/, '.'), '');
    if (definition.details) lines.push(paragraphs(definition.details), '');
    if (definition.options.length) {
      lines.push('| option | description |', '| --- | --- |');
      for (const option of definition.options)
        lines.push(
          `| \`${namedPlaceholders(option.definition).replace(/\s+/g, ' ').replace(/,/g, ', ').trim()}\` ` +
            `| ${cell(option.description ?? '')} |`,
        );
      lines.push('');
    }
    if (definition.examples?.length) {
      lines.push('Examples:', '', '```sh');
      for (const [what, command] of definition.examples)
        lines.push(`# ${what.replace(/\s*\n\s*/g, ' ')}`, command.replace(/\$0/g, 'agentgov'));
      lines.push('```', '');
    }
    sections.push(lines.join('\n').trimEnd());
  }
  return sections.join('\n\n');
}

const GENERATORS: Record<string, () => string> = {
  'exit-codes': renderExitCodes,
  commands: renderCommandReference,
};

/** The markdown with every generated block re-rendered; throws for a block no generator knows, or one missing. */
export function updateCliBlocks(markdown: string): string {
  const seen = new Set<string>();
  const updated = markdown.replace(
    /<!-- generated:([a-z-]+) -->\n[\s\S]*?<!-- \/generated:\1 -->/g,
    (_block, name: string) => {
      const render = GENERATORS[name];
      if (!render) throw new Error(`docs/cli.md has a generated block '${name}' that no generator renders`);
      seen.add(name);
      return `<!-- generated:${name} -->\n\n${render()}\n\n<!-- /generated:${name} -->`;
    },
  );
  const missing = Object.keys(GENERATORS).filter((name) => !seen.has(name));
  if (missing.length) throw new Error(`docs/cli.md has no generated block for ${missing.join(', ')}`);
  return updated;
}
