import { expect } from 'chai';
import { fixtureDef } from '@agentgov/core/testing';
import type { RankedCandidate } from '../../src/recon/fuse.js';
import { applyPriors, isTestPath } from '../../src/recon/priors.js';
import { parseQuery } from '../../src/recon/query.js';

const c = (path: string, name: string, score: number, named = 0): RankedCandidate => ({
  def: fixtureDef(path, name, 1, 2),
  signals: {},
  agreement: 1,
  explicit: named > 0,
  named,
  score,
});

describe('recon/priors', () => {
  it('recognises test files of both languages', () => {
    for (const p of ['tests/test_app.py', 'src/a.test.ts', 'pkg/__tests__/x.js', 'test/req.js', 'a/conftest.py'])
      expect(isTestPath(p), p).to.equal(true);
    for (const p of ['src/testing.ts', 'lib/request.js', 'flask/testsuite.py'])
      expect(isTestPath(p), p).to.equal(false);
  });

  it('ranks product code above tests and examples unless the task is about them or they were pinned', () => {
    const pool = [c('test/app.js', 't', 1), c('examples/demo.js', 'e', 0.9), c('lib/app.js', 'a', 0.6)];
    expect(applyPriors(pool, parseQuery('app crashes')).map((x) => x.def.name)).to.deep.equal(['a', 't', 'e']);
    expect(applyPriors(pool, parseQuery('the app tests fail'))[0]?.def.name).to.equal('t');
    expect(
      applyPriors([c('test/app.js', 't', 1, 1), c('lib/app.js', 'a', 0.9)], parseQuery('app crashes'))[0]?.def.name,
    ).to.equal('t');
  });

  it("lets a second file through before a file's third definition", () => {
    const pool = [
      c('lib/a.js', 'a1', 1),
      c('lib/a.js', 'a2', 0.95),
      c('lib/a.js', 'a3', 0.9),
      c('lib/b.js', 'b1', 0.7),
    ];
    expect(applyPriors(pool, parseQuery('whatever')).map((x) => x.def.name)).to.deep.equal(['a1', 'a2', 'b1', 'a3']);
  });
});
