/**
 * docs/tools.md's generated blocks: each tool's parameters, result, errors and example, rendered
 * from its `defineTool` (through `toolDoc`, the same view `describe` serves), between
 * `<!-- generated:tool NAME -->` and `<!-- /generated:tool NAME -->`. The prose around the blocks
 * is written by hand. `npm run docs:generate` rewrites the blocks (scripts/write-tool-docs.mjs);
 * server/test/tools/tool-docs.test.ts fails when the committed file differs from that.
 */
import { toolDoc } from './describe.js';
import type { AnyToolDefinition } from './tool.js';

const BLOCK = /<!-- generated:tool ([a-z_]+) -->\n[\s\S]*?<!-- \/generated:tool \1 -->/g;

/** `|` and line breaks would end a table cell. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/** One tool's generated block, markers included. */
export function renderToolBlock(tool: AnyToolDefinition): string {
  const doc = toolDoc(tool);
  const lines = [
    `<!-- generated:tool ${doc.name} -->`,
    '',
    `${cell(doc.brief)}`,
    '',
    doc.parameters.length
      ? [
          '| Param | Type | Default | Description |',
          '| --- | --- | --- | --- |',
          ...doc.parameters.map((p) => {
            const fallback = 'default' in p ? `\`${cell(JSON.stringify(p.default))}\`` : '';
            return `| ${p.name} | ${cell(p.type)} | ${p.required ? 'required' : fallback} | ${cell(p.description)} |`;
          }),
        ].join('\n')
      : 'No parameters.',
    '',
    `**Returns**: ${cell(doc.returns)}`,
    '',
    `**Errors**: ${doc.errors.map((code) => `\`${code}\``).join(', ')} (see [errors.md](errors.md))`,
    '',
    `**Example**: \`${JSON.stringify(doc.example)}\``,
    '',
    `<!-- /generated:tool ${doc.name} -->`,
  ];
  return lines.join('\n');
}

/**
 * The markdown with every generated block re-rendered from `tools`; throws naming a tool without a
 * block, or a block naming no tool (a renamed or removed one).
 */
export function updateToolBlocks(markdown: string, tools: readonly AnyToolDefinition[]): string {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const seen = new Set<string>();
  const updated = markdown.replace(BLOCK, (_block, name: string) => {
    const tool = byName.get(name);
    if (!tool) throw new Error(`docs/tools.md has a generated block for '${name}', which is no tool`);
    seen.add(name);
    return renderToolBlock(tool);
  });
  const missing = tools.filter((tool) => !seen.has(tool.name)).map((tool) => tool.name);
  if (missing.length) throw new Error(`docs/tools.md has no generated block for ${missing.join(', ')}`);
  return updated;
}
