import { expect } from 'chai';
import { z } from 'zod';
import { listedTools } from '../../src/tools/index.js';
import { defineTool } from '../../src/tools/tool.js';
import { connectClient } from '../mcp/session-client.js';
import { fixtureRepo, SERVICE_REPO, type FixtureRepo } from '../recon/fixture-repo.js';

/** A mutating tool for the test only: it reports the session state it ran in. */
const probeWrite = defineTool({
  name: 'probe_write',
  group: 'Refactor',
  readOnly: false,
  brief: 'test probe',
  description: 'test probe',
  inputSchema: z.object({}).strict(),
  returns: 'session state',
  whenToUse: 'tests',
  related: [],
  errors: [],
  example: {},
  needsIndex: false,
  async handler(_args, ctx) {
    return { didRecon: ctx.session.didRecon };
  },
});

type Structured = Record<string, unknown> & { error?: { code: string; message: string } };

describe('tools: recon, recon_raw_signals, recon_impact over MCP', function () {
  this.timeout(60_000);
  let repo: FixtureRepo;
  let session: Awaited<ReturnType<typeof connectClient>>;
  const call = async (name: string, args: Record<string, unknown>): Promise<Structured> => {
    const result = await session.client.callTool({ name, arguments: args });
    return result.structuredContent as Structured;
  };

  before(async () => {
    repo = await fixtureRepo({
      ...SERVICE_REPO,
      'src/http/client.ts': `import { openConnection } from '../db/connection.js';
// openConnection is retried by the caller
export function fetchPage(url: string) {
  const conn = openConnection(url);
  return conn.url + 'openConnection';
}
export function untyped(pool: any) {
  return pool.openConnection('x');
}
`,
      'examples/greet.ts': `export function hello(name: string): string {
  return 'hi ' + name;
}
`,
    });
    session = await connectClient({
      repoRoot: repo.root,
      index: repo.index,
      host: repo.host,
      devMode: true,
      tools: [...listedTools(true), probeWrite],
    });
  });
  after(async () => {
    await session?.close();
    await repo?.index.close();
  });

  it('recon records the session intent: true blocks mutations, omitted keeps it, false lifts it, and marks recon done', async () => {
    expect(await call('probe_write', {})).to.deep.equal({ didRecon: false });
    const research = await call('recon', { task: 'LruCache evict', read_only: true });
    expect(research['gate']).to.equal('OK');
    expect((await call('probe_write', {})).error?.code).to.equal('E_READ_ONLY_SESSION');
    await call('recon', { task: 'LruCache evict' });
    expect((await call('probe_write', {})).error?.code).to.equal('E_READ_ONLY_SESSION');
    await call('recon', { task: 'LruCache evict', read_only: false });
    expect(await call('probe_write', {})).to.deep.equal({ didRecon: true });
  });

  it('recon answers code as numbered fenced blocks in the text, and a structured copy without the code', async () => {
    const result = await session.client.callTool({
      name: 'recon',
      arguments: { task: 'LruCache evict should drop the least recently used entry' },
    });
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    const structured = result.structuredContent as {
      gate: string;
      results: { path: string; detail: string; start_line: number }[];
      budget: { tokens: number; used_tokens: number };
    };
    expect(structured.gate).to.equal('OK');
    const top = structured.results[0]!;
    expect(top.detail).to.equal('code');
    expect(text).to.match(new RegExp(`1\\. ${top.path}:${top.start_line}-\\d+ `));
    expect(text).to.match(/```ts\n\s*\d+ {2}\S/);
    expect(structured.results.every((r) => !('snippet' in r))).to.equal(true);
    expect(JSON.stringify(structured)).to.not.include('evict(');
    expect(structured).to.not.have.property('diagnostics');
    expect(structured).to.have.property('metrics');
    expect(structured.budget.tokens).to.equal(3000);
    expect(Buffer.byteLength(JSON.stringify(structured))).to.be.at.most(Buffer.byteLength(text) + 2000);
    const verbose = await call('recon', { task: 'LruCache evict', verbose: true });
    expect(verbose['diagnostics']).to.have.property('pool_size');
  });

  it('recon "hello" finds a hello the repository defines instead of answering UNSAT', async () => {
    const result = await call('recon', { task: 'hello' });
    expect(result['gate']).to.not.equal('UNSAT');
    expect((result['results'] as { name: string }[])[0]?.name).to.equal('hello');
  });

  it('recon UNSAT names what is missing and the nearest existing names, in a short answer', async () => {
    const result = await session.client.callTool({
      name: 'recon',
      arguments: { task: 'fix the crash in frobnicateWidget when SpaceshipPanel renders' },
    });
    const text = (result.content as { text: string }[])[0]!.text;
    const structured = result.structuredContent as {
      gate: string;
      missing: string[];
      nearest: Record<string, string[]>;
      results: unknown[];
    };
    expect(structured.gate, text).to.equal('UNSAT');
    expect(structured.missing).to.have.members(['frobnicateWidget', 'SpaceshipPanel']);
    expect(structured.nearest).to.have.keys('frobnicateWidget', 'SpaceshipPanel');
    expect(structured.results.length).to.be.at.most(5);
    expect(text).to.match(/missing: frobnicateWidget — (nearest existing: |nothing similar)/);
    expect(Buffer.byteLength(text) + Buffer.byteLength(JSON.stringify(structured))).to.be.at.most(8 * 1024);
  });

  const badInputs: [string, Record<string, unknown>, string][] = [
    ['empty task', { task: '' }, 'E_INVALID_ARGUMENT'],
    ['huge task', { task: 'word '.repeat(10_000) }, 'E_INVALID_ARGUMENT'],
    ['seeds of wrong type', { task: 'evict', seeds: 42 }, 'E_INVALID_ARGUMENT'],
    ['pins of wrong type', { task: 'evict', pins: [1, 2] }, 'E_INVALID_ARGUMENT'],
    ['a pin outside the repository', { task: 'evict', pins: ['../../etc/passwd'] }, 'E_PATH_OUTSIDE_REPO'],
    ['an unknown parameter', { task: 'evict', top_k: 3 }, 'E_INVALID_ARGUMENT'],
    ['a budget below the minimum', { task: 'evict', budget: 10 }, 'E_INVALID_ARGUMENT'],
    ['a fractional budget', { task: 'evict', budget: 1000.5 }, 'E_INVALID_ARGUMENT'],
    ['a budget of the wrong type', { task: 'evict', budget: 'lots' }, 'E_INVALID_ARGUMENT'],
  ];
  for (const [name, args, code] of badInputs) {
    it(`recon answers ${code} for ${name}`, async () => {
      expect((await call('recon', args)).error?.code).to.equal(code);
    });
  }

  it("recon_raw_signals lists the pool with every retriever's scores (dev mode)", async () => {
    const raw = await call('recon_raw_signals', { query: 'evict entries', seeds: 'slugify' });
    expect(raw['retrievers']).to.include.members(['lexical', 'term', 'symbol', 'graph']);
    const candidates = raw['candidates'] as {
      name: string;
      signals: Record<string, { score: number; rank: number }>;
    }[];
    expect(candidates.find((c) => c.name === 'slugify')?.signals['symbol']?.score).to.equal(1);
  });

  it('recon_impact: resolved references are high, unresolved same-name uses medium, comments low', async () => {
    const impact = await call('recon_impact', { target: 'openConnection', justification: 'renaming it' });
    expect(impact).to.not.have.property('refactor_id');
    const refs = impact['references'] as { path: string; line: number; match_text: string; certainty: string }[];
    const at = (line: number) => refs.find((r) => r.path === 'src/http/client.ts' && r.line === line);
    expect(at(4)).to.include({ certainty: 'high', match_text: 'const conn = openConnection(url);' });
    expect(at(8)?.certainty).to.equal('medium');
    expect(at(2)?.certainty).to.equal('low');
    const withoutComments = await call('recon_impact', {
      target: 'openConnection',
      justification: 'renaming it',
      include_comments: false,
    });
    expect((withoutComments['references'] as { certainty: string }[]).map((r) => r.certainty)).to.not.include('low');
  });

  it('recon_impact on a file lists its importers', async () => {
    const impact = await call('recon_impact', { target: 'src/auth/session.ts', justification: 'moving it' });
    expect(impact['importers']).to.deep.equal([
      { path: 'src/http/router.ts', line: 1, specifier: '../auth/session.js' },
    ]);
    expect((impact['references'] as { certainty: string }[])[0]?.certainty).to.equal('high');
  });

  it('recon_impact refuses unknown symbols, paths outside the repo and a missing justification', async () => {
    expect((await call('recon_impact', { target: 'noSuchThing', justification: 'x' })).error?.code).to.equal(
      'E_NOT_FOUND',
    );
    expect((await call('recon_impact', { target: '../outside.ts', justification: 'x' })).error?.code).to.equal(
      'E_PATH_OUTSIDE_REPO',
    );
    expect((await call('recon_impact', { target: 'openConnection' })).error?.code).to.equal('E_INVALID_ARGUMENT');
  });
});
