import { expect } from 'chai';
import { fixtureDef, MemoryRetrievalIndex } from '@agentgov/core/testing';
import type { RetrievalDefinition } from '@agentgov/core';
import type { RankedCandidate } from '../../src/recon/fuse.js';
import { checkMentions, decideGate, DEFAULT_GATE, subsystemLabels } from '../../src/recon/gate.js';
import { parseQuery } from '../../src/recon/query.js';

function ranked(def: RetrievalDefinition, score: number, extra: Partial<RankedCandidate> = {}): RankedCandidate {
  return { def, signals: { lexical: { score, rank: 1 } }, agreement: 1, explicit: false, named: 0, score, ...extra };
}

describe('recon/gate', () => {
  const index = new MemoryRetrievalIndex({ 'src/a/x.ts': 'const usedName = 1;\n', 'src/b/y.ts': '' }, [
    fixtureDef('src/a/x.ts', 'parse', 1, 1),
  ]);

  it('labels subsystems by the first directory below the common one', () => {
    expect(subsystemLabels(['src/billing/a.ts', 'src/auth/deep/b.ts'])).to.deep.equal(['src/billing', 'src/auth']);
    expect(subsystemLabels(['lib/a.ts', 'lib/b.ts'])).to.equal(null);
    expect(subsystemLabels(['lib/a.ts', 'lib/sub/b.ts'])).to.deep.equal(['lib', 'lib/sub']);
  });

  it('counts an identifier as present when the code uses it anywhere, and a path by suffix', () => {
    const q = parseQuery('make usedName and missingName work in a/x.ts and nope/z.ts');
    expect(checkMentions(q, index)).to.deep.equal({
      found: ['usedName', 'a/x.ts'],
      missing: ['missingName', 'nope/z.ts'],
      missingParts: {},
    });
  });

  it('counts a qualified identifier as present only as written in a file', () => {
    const web = new MemoryRetrievalIndex({ 'src/a.ts': 'export const host = req.hostname;\nrun(self);\n' }, [
      fixtureDef('src/a.ts', 'run', 1, 1),
    ]);
    const q = parseQuery('call req.hostname, then app.run, req.nothing and self.run');
    expect(checkMentions(q, web)).to.deep.equal({
      found: ['req.hostname'],
      missing: ['app.run', 'req.nothing', 'self.run'],
      missingParts: { 'app.run': ['app'], 'req.nothing': ['nothing'], 'self.run': [] },
    });
  });

  const rows: [string, string, RankedCandidate[], string][] = [
    ['empty pool', 'anything at all', [], 'UNSAT'],
    [
      'every mention missing, nothing strong',
      'fix missingName',
      [ranked(fixtureDef('src/a/x.ts', 'parse', 1, 1), 0.1)],
      'UNSAT',
    ],
    [
      'one name, two subsystems, comparable scores',
      '`parse` is slow',
      [ranked(fixtureDef('src/a/x.ts', 'parse', 1, 1), 0.2), ranked(fixtureDef('src/b/y.ts', 'parse', 1, 1), 0.18)],
      'AMBIG',
    ],
    [
      'one name, two subsystems, one clearly ahead',
      '`parse` is slow',
      [ranked(fixtureDef('src/a/x.ts', 'parse', 1, 1), 0.5), ranked(fixtureDef('src/b/y.ts', 'parse', 1, 1), 0.1)],
      'OK',
    ],
    [
      'one name, two subsystems, the task names one of them',
      '`parse` is slow in b',
      [ranked(fixtureDef('src/a/x.ts', 'parse', 1, 1), 0.2), ranked(fixtureDef('src/b/y.ts', 'parse', 1, 1), 0.18)],
      'OK',
    ],
    [
      'flat, weak, spread over five directories',
      'improve things',
      ['a', 'b', 'c', 'd', 'e'].map((d, i) => ranked(fixtureDef(`src/${d}/f.ts`, `f${d}`, 1, 1), 0.1 - i * 0.005)),
      'BROAD',
    ],
    [
      'spread but peaked',
      'improve things',
      ['a', 'b', 'c', 'd', 'e'].map((d, i) => ranked(fixtureDef(`src/${d}/f.ts`, `f${d}`, 1, 1), i === 0 ? 1 : 0.1)),
      'OK',
    ],
  ];
  it('a short task naming new members of objects that exist is not a lookup of absent names', () => {
    // expressjs/express 5fa2f895 adds these aliases: at its parent `res`, `req` and `header` exist, only apart.
    const web = new MemoryRetrievalIndex(
      { 'lib/response.js': 'const res = {};\nres.set = function header(field) {};\nconst req = {};\n' },
      [fixtureDef('lib/response.js', 'header', 2, 2)],
    );
    const task = 'Added `res.header()` and `req.header()` aliases for BC';
    const { gate, features } = decideGate(parseQuery(task), [ranked(fixtureDef('lib/x.js', 'set', 1, 1), 0.1)], web);
    expect(features.mentions_missing_parts).to.deep.equal({ 'res.header': [], 'req.header': [] });
    expect(gate, JSON.stringify(features)).to.equal('OK');
    const absent = decideGate(parseQuery('Added `res.frob()` alias'), [], web);
    expect(absent.features.mentions_missing_parts).to.deep.equal({ 'res.frob': ['frob'] });
  });

  for (const [name, task, pool, gate] of rows) {
    it(`${gate}: ${name}`, () => {
      expect(decideGate(parseQuery(task), pool, index).gate).to.equal(gate);
    });
  }

  it('seeds or pins override AMBIG, BROAD and UNSAT', () => {
    const q = parseQuery('fix missingName', ['parse']);
    expect(
      decideGate(q, [ranked(fixtureDef('src/a/x.ts', 'parse', 1, 1), 0.1, { explicit: true, named: 1 })], index).gate,
    ).to.equal('OK');
  });

  describe('off-topic tasks (distinctive words the repository does not have)', () => {
    const repo = new MemoryRetrievalIndex(
      {
        'src/schema/tuple.ts': 'export class ZodTuple { nonempty() {} }\n// nullish coercion of tuples\n',
        'src/schema/string.ts': 'export function parseString(input: string) { return input; }\n',
      },
      [fixtureDef('src/schema/tuple.ts', 'ZodTuple', 1, 1), fixtureDef('src/schema/string.ts', 'parseString', 1, 1)],
    );
    const pool = [ranked(fixtureDef('src/schema/string.ts', 'parseString', 1, 1), 0.3)];

    it('UNSAT when most distinctive words are missing; the features list them', () => {
      const { gate, features } = decideGate(
        parseQuery('Blueprint subdomain routing ignores the werkzeug jinja environment when the string is empty'),
        pool,
        repo,
      );
      expect(gate).to.equal('UNSAT');
      expect(features.words_missing).to.include.members(['subdomain', 'werkzeug', 'jinja']);
      expect(features.words_known).to.equal(0);
    });

    it("OK when the distinctive words are this repository's, even with a new name in the task", () => {
      const { gate, features } = decideGate(
        parseQuery('add nonempty to ZodTuple and make nullish tuples coerce via the new parseTupleLike helper'),
        pool,
        repo,
      );
      expect(gate).to.not.equal('UNSAT');
      expect(features.words_known).to.be.greaterThan(0);
    });

    it('commit trailers, e-mail addresses and URLs are not the task: their names do not count as missing', () => {
      const task =
        'add nonempty to ZodTuple\n\nCo-authored-by: Jolene Quixwerther <jq@zyxmail.example>\nhttps://gitfoo.example/qwzx/yyzzq';
      const { gate, features } = decideGate(parseQuery(task), pool, repo);
      expect(gate).to.not.equal('UNSAT');
      expect(features.words_missing).to.deep.equal([]);
    });

    it('not UNSAT on generic words only (common English and generic code vocabulary say nothing)', () => {
      expect(
        decideGate(parseQuery('fix the callback when the request has no json body'), pool, repo).gate,
      ).to.not.equal('UNSAT');
    });

    it('a commit message naming only a function it adds is not UNSAT; a short lookup of a missing name is', () => {
      expect(
        decideGate(parseQuery('add parseEmailAddress so that string schemas can validate inputs strictly'), pool, repo)
          .gate,
      ).to.not.equal('UNSAT');
      expect(decideGate(parseQuery('where is parseEmailAddress'), pool, repo).gate).to.equal('UNSAT');
    });
  });

  describe('faint overlap (a few missing names, the rest of the words rare here)', () => {
    // A validation library of 150 files: each file its own schema, all of them about parsing and checking values.
    const texts: Record<string, string> = {};
    const defs: RetrievalDefinition[] = [];
    for (let i = 0; i < 150; i += 1) {
      const path = `src/schemas/kind${i}.ts`;
      texts[path] = `export function checkKind${i}(value: unknown) {\n  // parse the value, report an issue\n}\n`;
      defs.push(fixtureDef(path, `checkKind${i}`, 1, 3));
    }
    const big = new MemoryRetrievalIndex(texts, defs);
    const pool = [ranked(defs[0] as RetrievalDefinition, 0.3)];

    it('UNSAT for a short task of another project: its names are missing and its other words rare', () => {
      const { gate, features } = decideGate(
        parseQuery('Fixed an error reporting bug with flask.Config.from_envvar'),
        pool,
        big,
      );
      expect(features.words_missing).to.include('from_envvar');
      expect(features.mentions_missing).to.deep.equal(['flask.Config.from_envvar']);
      expect(features.word_rarity).to.be.at.most(-4.5);
      expect(gate).to.equal('UNSAT');
      // This rule's, not the first off-topic rule's: without the rarity condition the task is not UNSAT.
      const task = parseQuery('Fixed an error reporting bug with flask.Config.from_envvar');
      expect(decideGate(task, pool, big, { ...DEFAULT_GATE, faintRarity: -Infinity }).gate).to.not.equal('UNSAT');
    });

    it("not UNSAT when the task's other words are this repository's, though a new name is missing", () => {
      const { gate, features } = decideGate(
        parseQuery('checkKind7 should report an issue when parse_strict_mode is on for the value'),
        pool,
        big,
      );
      expect(features.word_rarity).to.be.above(-4.5);
      expect(gate).to.not.equal('UNSAT');
    });

    it('not UNSAT in a small repository, where no word can be rare enough to say so', () => {
      const small = new MemoryRetrievalIndex({ 'src/a.ts': texts['src/schemas/kind0.ts'] as string }, defs.slice(0, 1));
      const { gate, features } = decideGate(
        parseQuery('Fixed an error reporting bug with flask.Config.from_envvar'),
        pool,
        small,
      );
      expect(features.word_rarity).to.be.above(-4.5);
      expect(gate).to.not.equal('UNSAT');
    });
  });
});
