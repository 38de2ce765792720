import { expect } from 'chai';
import { fixtureDef, MemoryRetrievalIndex } from '@agentgov/core/testing';
import type { RetrievalDefinition } from '@agentgov/core';
import type { RankedCandidate } from '../../src/recon/fuse.js';
import { checkMentions, decideGate, subsystemLabels } from '../../src/recon/gate.js';
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
});
