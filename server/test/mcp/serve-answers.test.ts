import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ERROR_CATALOG } from '@agentgov/core';
import { isolatedEnv, makeTempDir, writeTree } from '@agentgov/core/testing';
import { expect } from 'chai';
import { ServeClient, type Structured } from '../checkpoint/serve-client.js';
import { gitInit, SERVICE_REPO } from '../recon/fixture-repo.js';

const MAIN = fileURLToPath(new URL('../../../../cli/dist/src/main.js', import.meta.url));

type Metrics = {
  pool: { candidates: number; kept: number; results: number };
  timings_ms: Record<string, number>;
  gate: Record<string, unknown>;
  cutoff: string;
};
type Recon = Structured & { gate: string; results: unknown[]; metrics: Metrics; diagnostics?: Record<string, unknown> };
type Failure = { code: string; message: string; remediation: string; details: Record<string, unknown> };

const failure = (data: Structured): Failure => data.error as unknown as Failure;

describe('agentgov serve over stdio: recon metrics and specific error remediations', function () {
  this.timeout(120_000);
  let serve: ServeClient;
  before(async () => {
    const repo = makeTempDir('agentgov-answers-');
    writeTree(repo, SERVICE_REPO);
    gitInit(repo);
    serve = await ServeClient.start(repo);
  });
  after(async () => serve?.close());

  const TASKS: [string, Record<string, unknown>, string][] = [
    ['OK', { task: 'LruCache evict should drop the least recently used entry' }, 'OK'],
    ['UNSAT: a name the repository does not define', { task: 'fix frobnicateWidget so it stops flickering' }, 'UNSAT'],
    ['AMBIG: a name defined in two subsystems', { task: 'validate' }, 'AMBIG'],
    ['an empty pool', { task: 'zzzqqq' }, 'UNSAT'],
    ['a small budget', { task: 'LruCache evict', budget: 500 }, 'OK'],
    ['seeds and pins', { task: 'change it', seeds: ['computeTotal'], pins: ['src/auth/session.ts'] }, 'OK'],
  ];
  for (const [what, args, gate] of TASKS) {
    it(`every recon answer carries compact metrics: ${what}`, async () => {
      const { data, text } = await serve.call('recon', args);
      const answer = data as Recon;
      expect(answer.error, text).to.equal(undefined);
      expect(answer.gate).to.equal(gate);
      expect(answer.metrics.pool.results).to.equal(answer.results.length);
      expect(answer.metrics.pool.kept).to.be.at.least(answer.metrics.pool.results === 0 ? 0 : 1);
      expect(answer.metrics.pool.candidates).to.be.at.least(answer.metrics.pool.kept);
      expect(Object.keys(answer.metrics.timings_ms)).to.include.members([
        'retrieve',
        'rank',
        'gate',
        'cutoff',
        'snippets',
        'total',
      ]);
      expect(answer.metrics.gate).to.have.all.keys(
        'mentions',
        'mentions_missing',
        'strong',
        'spread',
        'flatness',
        'ambiguous',
        'words_known',
        'words_missing',
        'word_rarity',
      );
      expect(answer.metrics.cutoff).to.be.a('string');
      expect(Buffer.byteLength(JSON.stringify(answer.metrics))).to.be.below(600);
      expect(answer).to.not.have.property('diagnostics');
      expect(text.split('\n').at(-1)).to.match(/^metrics: \d+ candidates, \d+ kept, \d+ shown; [\d.]+ ms \(retrieve /);
    });
  }

  it('UNSAT for a task written for another codebase: short, no code, the hint names the words it lacks', async () => {
    const { data, text } = await serve.call('recon', {
      task: 'Blueprint subdomain routing ignores the werkzeug jinja environment when a prefix is set',
    });
    const answer = data as Recon;
    expect(answer.gate, text).to.equal('UNSAT');
    expect(answer.hint).to.include("'werkzeug'").and.include("'jinja'");
    expect(answer.metrics.gate.words_missing).to.be.at.least(3);
    expect(answer.results.length).to.be.at.most(5);
    expect(text).to.not.include('```');
    expect(Buffer.byteLength(text)).to.be.below(2000);
  });

  it('verbose adds the full diagnostics beside the compact metrics', async () => {
    const answer = (await serve.call('recon', { task: 'LruCache evict', verbose: true })).data as Recon;
    expect(answer.metrics.pool.candidates).to.be.above(0);
    expect(answer.diagnostics).to.include.keys('contributions', 'retriever_ms', 'gate_features');
  });

  it('an unknown git ref in semantic_diff: the remediation names the ref, the refs that exist and how to list them', async () => {
    const { data } = await serve.call('semantic_diff', { base: 'no-such-branch' });
    const error = failure(data);
    expect(error.code).to.equal('E_NOT_FOUND');
    expect(error.remediation).to.not.equal(ERROR_CATALOG.E_NOT_FOUND.remediation);
    expect(error.remediation).to.include("'no-such-branch' is not a branch, tag or commit");
    expect(error.remediation).to.match(/recent refs: (main|master)/);
    expect(error.remediation).to.include('git branch -a');
  });

  it('an unknown index epoch in semantic_diff: the remediation gives the current epoch', async () => {
    const error = failure((await serve.call('semantic_diff', { base: 'epoch:999' })).data);
    expect(error.code).to.equal('E_NOT_FOUND');
    expect(error.remediation).to.match(/^The index is at epoch \d+: pass base "epoch:N" with N from 0 to \d+/);
  });

  it('an unknown tool: the remediation lists the tools the server has', async () => {
    const result = await serve.client.callTool({ name: 'recon_search', arguments: {} });
    const error = failure(result.structuredContent as Structured);
    expect(error.code).to.equal('E_NOT_FOUND');
    expect(error.remediation).to.match(
      /^This server has no tool 'recon_search'\. Call one it lists \(tools\/list\): describe, recon_scout, recon, /,
    );
  });

  it('an unknown symbol in recon_impact: the remediation names the nearest defined names', async () => {
    const error = failure((await serve.call('recon_impact', { target: 'computeTotals', justification: 'x' })).data);
    expect(error.code).to.equal('E_NOT_FOUND');
    expect(error.remediation).to.include(
      "No definition is named 'computeTotals'; the nearest names defined here: computeTotal",
    );
  });

  it('an unknown file in recon_impact: the remediation names the path', async () => {
    const error = failure(
      (await serve.call('recon_impact', { target: 'src/nope/missing.ts', justification: 'x' })).data,
    );
    expect(error.remediation).to.include("'src/nope/missing.ts' is not a file the index parsed");
  });

  it('describe with an unknown tool or error code: the remediation names what exists', async () => {
    const tool = failure((await serve.call('describe', { action: 'tool', name: 'recon_magic' })).data);
    expect(tool.remediation).to.match(/^This server has no tool 'recon_magic'; pass one of: describe, recon_scout, /);
    const code = failure((await serve.call('describe', { action: 'error', code: 'E_NOPE' })).data);
    expect(code.remediation).to.match(/^Pass one of the codes in details\.available \(\d+ codes/);
  });

  it('serve --repo with a path that does not exist: the hint names that path', () => {
    const home = makeTempDir('agentgov-answers-home-');
    const missing = `${makeTempDir('agentgov-answers-gone-')}/not-here`;
    const run = spawnSync(process.execPath, [MAIN, 'serve', '--repo', missing], {
      env: isolatedEnv(home),
      input: '',
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).to.not.equal(0);
    expect(run.stderr).to.include(`error [E_NOT_FOUND]: repository ${missing} does not exist`);
    expect(run.stderr).to.include(
      `hint: ${missing} does not exist: pass --repo the root directory of an existing repository`,
    );
    expect(run.stderr).to.not.include('agentgov detect');
  });
});

describe('agentgov serve over stdio: the recon gate on a short task written for another repository', function () {
  this.timeout(180_000);
  let serve: ServeClient;
  before(async () => {
    // A validation library of 150 files: each file one schema, all of them about parsing and checking values.
    const tree: Record<string, string> = {};
    for (let i = 0; i < 150; i += 1)
      tree[`src/schemas/kind${i}.ts`] =
        `/** Parses a kind-${i} value and reports an issue when it does not fit. */\n` +
        `export function checkKind${i}(value: unknown): boolean {\n  return value !== ${i};\n}\n`;
    const repo = makeTempDir('agentgov-faint-');
    writeTree(repo, tree);
    gitInit(repo);
    serve = await ServeClient.start(repo);
  });
  after(async () => serve?.close());

  it('UNSAT with a short answer whose hint names what is missing; metrics carry how rare its words are', async () => {
    const { data, text } = await serve.call('recon', {
      task: 'Fixed an error reporting bug with flask.Config.from_envvar',
    });
    const answer = data as Recon;
    expect(answer.gate, text).to.equal('UNSAT');
    expect(answer.hint).to.include("'flask.Config.from_envvar'");
    expect(answer.metrics.gate.word_rarity).to.be.at.most(-4.5);
    expect(answer.results.length).to.be.at.most(5);
    expect(Buffer.byteLength(text)).to.be.below(2000);
  });

  it("OK for a task in this repository's words, though it names a function it adds", async () => {
    const { data, text } = await serve.call('recon', {
      task: 'checkKind7 should report an issue when parseStrictMode is on for the value',
    });
    const answer = data as Recon;
    expect(answer.gate, text).to.not.equal('UNSAT');
    expect(answer.metrics.gate.word_rarity).to.be.above(-4.5);
  });
});
