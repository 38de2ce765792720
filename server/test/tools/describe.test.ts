import { errorCodes, ERROR_CATALOG } from '@agentgov/core';
import { makeTempDir } from '@agentgov/core/testing';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { TOOLS } from '../../src/tools/index.js';
import { TOOL_GROUPS } from '../../src/tools/tool.js';
import { connectClient, ControlledIndex } from '../mcp/session-client.js';

describe('describe', () => {
  let call: (args: Record<string, unknown>) => Promise<CallToolResult>;
  let close: () => Promise<void>;
  before(async () => {
    const connected = await connectClient({
      repoRoot: makeTempDir('agentgov-describe-'),
      index: new ControlledIndex(),
    });
    call = async (args) => (await connected.client.callTool({ name: 'describe', arguments: args })) as CallToolResult;
    close = connected.close;
  });
  after(async () => close());

  for (const tool of TOOLS.filter((t) => !t.devOnly)) {
    it(`documents ${tool.name} from its definition`, async () => {
      const result = await call({ action: 'tool', name: tool.name });
      const doc = result.structuredContent as Record<string, unknown>;
      expect(doc).to.include({
        name: tool.name,
        group: tool.group,
        read_only: tool.readOnly,
        returns: tool.returns,
        when_to_use: tool.whenToUse,
      });
      expect(TOOL_GROUPS).to.include(doc['group']);
      const shape = (tool.inputSchema as { shape: Record<string, unknown> }).shape;
      expect((doc['parameters'] as { name: string }[]).map((p) => p.name)).to.deep.equal(Object.keys(shape));
      expect(doc['example']).to.deep.equal({ tool: tool.name, arguments: tool.example });
      expect(tool.inputSchema.safeParse(tool.example).success, 'the example must be valid input').to.equal(true);
      for (const code of doc['errors'] as string[]) expect(errorCodes()).to.include(code);
      expect(result.content[0]!.type).to.equal('text');
    });
  }

  it('shows types, required flags and defaults', async () => {
    const doc = (await call({ action: 'tool', name: 'describe' })).structuredContent as { parameters: unknown[] };
    expect(doc.parameters[0]).to.deep.equal({
      name: 'action',
      type: '"tool" | "error"',
      required: true,
      description: '`tool` documents one tool, `error` decodes one error code',
    });
    expect(doc.parameters[1]).to.deep.include({ name: 'name', type: 'string', required: false });
  });

  for (const code of errorCodes()) {
    it(`decodes ${code} from the catalog`, async () => {
      const result = await call({ action: 'error', code });
      expect(result.structuredContent).to.deep.equal({
        kind: 'error',
        code,
        ...ERROR_CATALOG[code],
        causes: [...ERROR_CATALOG[code].causes],
      });
      expect(result.content[0]).to.have.property('text').that.contains(ERROR_CATALOG[code].remediation);
    });
  }

  it('answers an unknown code with E_NOT_FOUND listing every code', async () => {
    const result = await call({ action: 'error', code: 'E_NO_SUCH' });
    expect(result.isError).to.equal(true);
    const error = (result.structuredContent as { error: { code: string; details: { available: string[] } } }).error;
    expect(error.code).to.equal('E_NOT_FOUND');
    expect(error.details.available).to.deep.equal(errorCodes());
  });

  it('answers an unknown tool with E_NOT_FOUND listing the tools by group', async () => {
    const result = await call({ action: 'tool', name: 'recon_everything' });
    const error = (
      result.structuredContent as { error: { code: string; details: { available: Record<string, string[]> } } }
    ).error;
    expect(error.code).to.equal('E_NOT_FOUND');
    expect(Object.values(error.details.available).flat().sort()).to.deep.equal(
      TOOLS.filter((t) => !t.devOnly)
        .map((t) => t.name)
        .sort(),
    );
  });

  it('answers a missing name or code with E_INVALID_ARGUMENT', async () => {
    for (const args of [{ action: 'tool' }, { action: 'error' }]) {
      const result = await call(args);
      expect((result.structuredContent as { error: { code: string } }).error.code).to.equal('E_INVALID_ARGUMENT');
    }
  });
});
