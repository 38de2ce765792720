import { expect } from 'chai';
import { parseQuery } from '../../src/recon/query.js';
import { runRecon, rawSignals, type ReconResult } from '../../src/recon/recon.js';
import { retrievalIndexOf } from '../../src/recon/retrieval-index.js';
import { runnerOf } from '../../src/recon/runner-of.js';
import { fixtureRepo, SERVICE_REPO, type FixtureRepo } from './fixture-repo.js';

describe('recon/recon (real index, bundled retrievers)', function () {
  this.timeout(60_000);
  let repo: FixtureRepo;
  before(async () => {
    repo = await fixtureRepo(SERVICE_REPO);
  });
  after(async () => {
    await repo?.index.close();
  });

  const recon = (task: string, seeds: unknown = [], pins: unknown = []): Promise<ReconResult> =>
    runRecon(parseQuery(task, seeds, pins), runnerOf(repo.host), retrievalIndexOf(repo.index));

  it('OK: a specific task finds its definition first, with code, and says what it did', async () => {
    const result = await recon('LruCache evict should drop the least recently used entry');
    expect(result.gate).to.equal('OK');
    expect(result.results[0]).to.include({ path: 'src/cache/lru.ts' });
    expect(result.results.slice(0, 3).map((r) => r.qualified_name)).to.include('LruCache.evict');
    expect(result.results[0]?.snippet).to.be.a('string').and.include('evict');
    const last = result.results[result.results.length - 1];
    if (result.results.length > 1) expect(last).to.not.have.property('snippet');
    expect(result.metrics.pool_size).to.be.greaterThan(0);
    expect(result.metrics.contributions).to.have.keys(
      'lexical',
      'lexical_file',
      'literal',
      'term',
      'symbol',
      'graph',
      'hub',
    );
    expect(result.metrics.timings_ms).to.have.keys('retrieve', 'rank', 'gate', 'cutoff', 'snippets');
    expect(result.metrics.cutoff.reason).to.be.oneOf(['elbow', 'max_results', 'pool_exhausted']);
    expect(result.hint).to.include('recon_impact');
  });

  it('UNSAT: identifiers the repository does not have, nothing else strong', async () => {
    const result = await recon('fix the crash in frobnicateWidget when SpaceshipPanel renders');
    expect(result.gate).to.equal('UNSAT');
    expect(result.metrics.gate_features.mentions_missing).to.have.members(['frobnicateWidget', 'SpaceshipPanel']);
    expect(result.hint).to.include('frobnicateWidget');
  });

  it('AMBIG: a key term naming definitions in two subsystems; the hint names both', async () => {
    const result = await recon('`validate` is too slow');
    expect(result.gate).to.equal('AMBIG');
    expect(result.metrics.gate_features.subsystems).to.have.members(['src/billing', 'src/auth']);
    expect(result.hint).to.include('src/billing').and.include('src/auth');
  });

  it('AMBIG resolves to OK once the task names the subsystem through a pin', async () => {
    const result = await recon('`validate` is too slow', [], ['src/auth/session.ts']);
    expect(result.gate).to.equal('OK');
    expect(result.results[0]?.path).to.equal('src/auth/session.ts');
  });

  it('BROAD: a vague task that matches weakly and flatly across many directories', async () => {
    const result = await recon('improve how every value is handled');
    expect(result.gate).to.equal('BROAD');
    expect(result.metrics.gate_features.spread).to.be.at.least(5);
    expect(result.hint).to.include('directories');
  });

  it('seeds put the named symbol first; pins include every definition of the file', async () => {
    const seeded = await recon('something about connections', 'closeConnection');
    expect(seeded.results[0]?.name).to.equal('closeConnection');
    const pinned = await recon('LruCache evict should drop the least recently used entry', [], 'src/util/strings.ts');
    expect(pinned.results.map((r) => r.name)).to.include('slugify');
  });

  it("raw signals: every candidate with each retriever's score and rank, seeds and pins injected", async () => {
    const raw = await rawSignals(
      parseQuery('evict entries', ['formatSummary'], ['src/db/connection.ts']),
      runnerOf(repo.host),
      retrievalIndexOf(repo.index),
    );
    expect(raw.retrievers).to.include.members(['lexical', 'term', 'symbol', 'graph']);
    const byName = new Map(raw.candidates.map((c) => [c.name, c]));
    expect(byName.get('formatSummary')?.signals['symbol']).to.include({ explicit: true, score: 1 });
    expect(byName.get('openConnection')?.signals['symbol']?.why).to.include('pin');
    expect(byName.get('evict')?.signals['lexical']?.rank).to.be.a('number');
  });

  it('an issue reference ("Closes #12") does not pull every close method to the top', async () => {
    const other = await fixtureRepo({
      'src/reader.ts':
        'export class CommandReader {\n  /** Closes the reader and waits for the child to exit. */\n' +
        '  close(): void {}\n}\n',
      'src/stream.ts': 'export class StreamReader {\n  /** Closes the stream. */\n  close(): void {}\n}\n',
      'src/template.ts':
        'export function interpolate(template: string, values: Record<string, string>): string {\n' +
        '  return template.replace(/\\$(\\w+)/g, (_, name: string) => values[name] ?? "");\n}\n',
    });
    try {
      const result = await runRecon(
        parseQuery('fix typo that was preventing interpolation\n\nCloses #12'),
        runnerOf(other.host),
        retrievalIndexOf(other.index),
      );
      expect(result.results.map((r) => r.path)).to.deep.equal(['src/template.ts']);
    } finally {
      await other.index.close();
    }
  });

  it("a docs/ folder's module that the product imports ranks as product code; a document's example does not", async () => {
    const other = await fixtureRepo({
      'src/flags/index.ts': "import { renderFlagHelp } from './doc/help.js';\nexport const help = renderFlagHelp;\n",
      'src/flags/doc/help.ts':
        'export function renderFlagHelp(flag: string): string {\n  return `--${flag}: wrapped help column`;\n}\n',
      'docs/guide/help.ts':
        "import { help } from '../../src/flags/index.js';\n" +
        'export function renderFlagHelpExample(flag: string): string {\n  return help(flag) + " wrapped help column";\n}\n',
    });
    try {
      const index = retrievalIndexOf(other.index);
      expect(index.importedByProduct?.('src/flags/doc/help.ts')).to.equal(true);
      expect(index.importedByProduct?.('docs/guide/help.ts')).to.equal(false);
      const result = await runRecon(
        parseQuery('wrap the help column of the flag help renderer'),
        runnerOf(other.host),
        index,
      );
      const ranked = result.results.map((r) => r.path);
      expect(ranked[0]).to.equal('src/flags/doc/help.ts');
      expect(ranked.indexOf('docs/guide/help.ts')).to.be.greaterThan(0);
    } finally {
      await other.index.close();
    }
  });

  describe('qualified mentions count as found only as written', () => {
    let web: FixtureRepo;
    before(async () => {
      web = await fixtureRepo({
        'src/request.ts':
          'import { IncomingMessage } from "node:http";\n' +
          'export const req = Object.create(IncomingMessage.prototype);\n' +
          'export function defineGetter(obj: object, name: string, getter: () => unknown): void {\n' +
          '  Object.defineProperty(obj, name, { configurable: true, enumerable: true, get: getter });\n}\n' +
          "defineGetter(req, 'protocol', function protocol(this: { secure: boolean }) {\n" +
          "  return this.secure ? 'https' : 'http';\n});\n" +
          "defineGetter(req, 'hostname', function hostname(this: { headers: Record<string, string> }) {\n" +
          "  return this.headers['x-forwarded-host'] ?? this.headers['host'];\n});\n",
        // Express's own tests write the names as an agent would: req.hostname.
        'test/request.test.ts':
          'import { req } from "../src/request.js";\n' + 'export const seen = [req.hostname, req.protocol];\n',
        'src/runner.ts': 'export function run(task: () => void): void {\n  task();\n}\n',
      });
    });
    after(async () => {
      await web?.index.close();
    });
    const reconWeb = (task: string): Promise<ReconResult> =>
      runRecon(parseQuery(task), runnerOf(web.host), retrievalIndexOf(web.index));

    it('names the repository has as written outweigh foreign words: not UNSAT', async () => {
      // expressjs/express#3495: the task names req.hostname, which express has, among deployment words it lacks.
      const result = await reconWeb(
        'req.hostname and req.protocol are wrong when deployed on openshift behind haproxy and an apache firewall',
      );
      expect(result.metrics.gate_features.mentions_found).to.include.members(['req.hostname', 'req.protocol']);
      expect(result.metrics.gate_features.words_missing.length).to.be.at.least(3);
      expect(result.gate, JSON.stringify(result.metrics.gate_features)).to.not.equal('UNSAT');
    });

    it('a qualified mention whose object the repository lacks is missing, and the hint says which part', async () => {
      const result = await reconWeb(
        'app.run() should start the werkzeug development server with the debug reloader and jinja templates',
      );
      const features = result.metrics.gate_features;
      expect(features.mentions_missing).to.include('app.run');
      expect(features.mentions_found).to.not.include('app.run');
      expect(features.mentions_missing_parts).to.deep.include({ 'app.run': ['app'] });
      expect(result.gate, JSON.stringify(features)).to.equal('UNSAT');
      expect(result.hint).to.include("'app.run' (no 'app')");
    });

    it('a short task naming a new method of an existing object is not a lookup of something absent', async () => {
      // expressjs/express 5fa2f895: "Added `res.header()` and `req.header()` aliases" adds them to existing objects.
      const result = await reconWeb('Added `req.secure()` alias');
      const features = result.metrics.gate_features;
      expect(features.mentions_missing).to.deep.equal(['req.secure']);
      expect(features.mentions_missing_parts).to.deep.equal({ 'req.secure': [] });
      expect(result.gate, JSON.stringify(features)).to.not.equal('UNSAT');
    });

    it('a mention written like an Object.prototype key is reported as any other', async () => {
      const result = await reconWeb(
        '__proto__ keys leak through mergeObjectSync into strictObject codecs in jitless mode',
      );
      expect(result.metrics.gate_features.mentions_missing).to.include('__proto__');
      expect(result.gate).to.equal('UNSAT');
      expect(result.hint).to.include("'__proto__'");
    });
  });
});
