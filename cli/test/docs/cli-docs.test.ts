import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import * as prettier from 'prettier';
import { renderCommandReference, renderExitCodes, updateCliBlocks } from '../../src/docs/command-reference.js';
import { COMMANDS } from '../../src/commands/index.js';
import { EXIT } from '../../src/exit-codes.js';

const CLI_MD = fileURLToPath(new URL('../../../../docs/cli.md', import.meta.url));

describe('docs/cli.md: exit codes and command reference generated from the commands', () => {
  it('is the committed output of `npm run docs:generate` (fails when the docs drift)', async () => {
    const committed = readFileSync(CLI_MD, 'utf8');
    const options = { ...(await prettier.resolveConfig(CLI_MD)), filepath: CLI_MD };
    const regenerated = await prettier.format(updateCliBlocks(committed), options);
    expect(committed === regenerated, 'docs/cli.md drifted: run `npm run build && npm run docs:generate`').to.equal(
      true,
    );
  });

  it('documents every exit code and every command with its options and examples', () => {
    const table = renderExitCodes();
    for (const code of Object.values(EXIT)) expect(table).to.match(new RegExp(`^\\| ${code} \\|`, 'm'));
    const reference = renderCommandReference();
    for (const command of COMMANDS) expect(reference).to.contain(`### \`agentgov ${command.paths![0]!.join(' ')}\``);
    expect(reference).to.contain('| `--config PATH` |').and.contain('agentgov replay session.jsonl --adapter');
  });

  it('refuses a block no generator renders, and a file missing one', () => {
    expect(() => updateCliBlocks('<!-- generated:nope -->\n<!-- /generated:nope -->')).to.throw(/nope/);
    expect(() => updateCliBlocks('# empty\n')).to.throw(/no generated block for exit-codes, commands/);
  });
});
