import { ERROR_CATALOG, errorCodes } from '@agentgov/core';
import { expect } from 'chai';
import { TOOLS, listedTools } from '../../src/tools/index.js';
import { fixtureRepo, SERVICE_REPO, type FixtureRepo } from '../recon/fixture-repo.js';
import { connectClient } from './session-client.js';

/** Words that read as a tool of this server: what an agent would try to call. */
const TOOL_LIKE =
  /\b(?:recon(?:_[a-z]+)*|refactor_(?!id\b)[a-z]+|graph_[a-z]+|blast_radius|covering_tests|semantic_diff|checkpoint|describe)\b/g;

describe('tools/list: output schemas and the names descriptions use', function () {
  this.timeout(60_000);
  let repo: FixtureRepo;
  let session: Awaited<ReturnType<typeof connectClient>>;
  before(async () => {
    repo = await fixtureRepo(SERVICE_REPO);
    session = await connectClient({
      repoRoot: repo.root,
      index: repo.index,
      host: repo.host,
      devMode: true,
      tools: listedTools(true),
    });
  });
  after(async () => {
    await session?.close();
    await repo?.index.close();
  });

  it('recon_impact and recon_scout say "recon" in their descriptions, for agents that search descriptions', async () => {
    const { tools } = await session.client.listTools();
    const recon = tools.filter((t) => t.name === 'recon_impact' || t.name === 'recon_scout');
    expect(recon).to.have.length(2);
    for (const tool of recon) expect(tool.description ?? '', tool.name).to.match(/\brecon\b/i);
  });

  it('every tool declares an outputSchema that admits its result and the error envelope', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).to.have.members(TOOLS.map((t) => t.name));
    for (const tool of tools) {
      expect(tool.outputSchema, tool.name).to.be.an('object');
      expect(tool.outputSchema?.type, tool.name).to.equal('object');
      const branches = (tool.outputSchema as { anyOf?: { required?: string[] }[] }).anyOf ?? [];
      expect(branches, tool.name).to.have.length(2);
      expect(branches[1]?.required, tool.name).to.deep.equal(['error']);
    }
  });

  it('results and errors validate against it (the SDK client checks every structured result it receives)', async () => {
    await session.client.listTools();
    const ok = await session.client.callTool({ name: 'recon', arguments: { task: 'LruCache evict' } });
    expect(ok.isError).to.not.equal(true);
    const scout = await session.client.callTool({ name: 'recon_scout', arguments: {} });
    expect(scout.isError).to.not.equal(true);
    const failed = await session.client.callTool({ name: 'refactor_cancel', arguments: { refactor_id: 'nope' } });
    expect(failed.isError).to.equal(true);
    expect((failed.structuredContent as { error: { code: string } }).error.code).to.match(/^E_/);
    const cycles = await session.client.callTool({ name: 'graph_cycles', arguments: { level: 'def' } });
    expect(cycles.isError).to.not.equal(true);
  });

  it("lists each tool's brief and each parameter's first sentence; describe serves the full texts", async () => {
    const { tools } = await session.client.listTools();
    const listed = tools.find((t) => t.name === 'recon')!;
    const definition = TOOLS.find((t) => t.name === 'recon')!;
    expect(listed.description).to.equal(definition.brief);
    expect(listed.description).to.not.include('Returns:');
    const task = (listed.inputSchema.properties as Record<string, { description: string }>)['task']!.description;
    expect(task).to.equal('What you are about to do, in plain words');
    const doc = await session.client.callTool({ name: 'describe', arguments: { action: 'tool', name: 'recon' } });
    const structured = doc.structuredContent as {
      description: string;
      returns: string;
      parameters: { name: string; description: string }[];
    };
    expect(structured.description).to.equal(definition.description);
    expect(structured.returns).to.equal(definition.returns);
    expect(structured.parameters.find((p) => p.name === 'task')!.description).to.equal(
      'What you are about to do, in plain words. Name symbols and files when you know them',
    );
  });

  it('no description, related list or error remediation names a tool that is not registered', () => {
    const registered = new Set(TOOLS.map((t) => t.name));
    const texts: [string, string][] = [];
    for (const tool of TOOLS) {
      texts.push(
        [`${tool.name}.brief`, tool.brief],
        [`${tool.name}.description`, tool.description],
        [`${tool.name}.returns`, tool.returns],
        [`${tool.name}.whenToUse`, tool.whenToUse],
      );
      for (const name of tool.related)
        expect(registered.has(name), `${tool.name}.related names ${name}`).to.equal(true);
    }
    for (const code of errorCodes()) texts.push([`${code}.remediation`, ERROR_CATALOG[code].remediation]);
    for (const [where, text] of texts) {
      for (const match of text.matchAll(TOOL_LIKE))
        expect(registered.has(match[0]), `${where} names '${match[0]}'`).to.equal(true);
    }
  });
});
