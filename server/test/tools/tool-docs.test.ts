import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import * as prettier from 'prettier';
import { TOOLS } from '../../src/tools/index.js';
import { renderToolBlock, updateToolBlocks } from '../../src/tools/tool-docs.js';

const TOOLS_MD = fileURLToPath(new URL('../../../../docs/tools.md', import.meta.url));

describe("docs/tools.md: each tool's block generated from its defineTool", () => {
  it('is the committed output of `npm run docs:generate` (fails when the docs drift)', async () => {
    const committed = readFileSync(TOOLS_MD, 'utf8');
    const options = { ...(await prettier.resolveConfig(TOOLS_MD)), filepath: TOOLS_MD };
    const regenerated = await prettier.format(updateToolBlocks(committed, TOOLS), options);
    expect(committed === regenerated, 'docs/tools.md drifted: run `npm run build && npm run docs:generate`').to.equal(
      true,
    );
  });

  it('a block carries the parameters, returns, errors and example of the definition', () => {
    const scout = TOOLS.find((tool) => tool.name === 'recon_scout')!;
    const block = renderToolBlock(scout);
    expect(block).to.contain('| scope |').and.contain('**Returns**: ').and.contain('`E_INDEX_NOT_READY`');
    expect(block).to.contain(`**Example**: \`${JSON.stringify({ tool: 'recon_scout', arguments: scout.example })}\``);
  });

  it('refuses a block for no tool, and a tool without a block', () => {
    const one = [TOOLS[0]!];
    expect(() => updateToolBlocks('<!-- generated:tool gone -->\n<!-- /generated:tool gone -->', one)).to.throw(
      /'gone', which is no tool/,
    );
    expect(() => updateToolBlocks('# nothing\n', one)).to.throw(/no generated block for describe/);
  });
});
