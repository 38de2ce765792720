import { expect } from 'chai';
import type { CandidatePool, RetrievalDefinition, RetrieverCandidate } from '@agentgov/core';
import { fuse } from '../../src/recon/fuse.js';

function def(uid: string, path = `src/${uid}.ts`): RetrievalDefinition {
  return {
    def_uid: uid,
    path,
    kind: 'function',
    name: uid,
    qualified_name: uid,
    start_line: 1,
    end_line: 3,
    signature: null,
    docstring: null,
  };
}

function pool(entries: Record<string, RetrieverCandidate[]>): CandidatePool {
  return new Map(Object.entries(entries).map(([name, cs]) => [name, new Map(cs.map((c) => [c.def_uid, c]))]));
}

describe('recon/fuse', () => {
  const defs = new Map(['a', 'b', 'c', 'd'].map((u) => [u, def(u)]));
  const index = { definition: (uid: string) => defs.get(uid) };

  it("ranks a candidate two retrievers agree on above one retriever's favourite", () => {
    const p = pool({
      lexical: [
        { def_uid: 'a', score: 9 },
        { def_uid: 'b', score: 5 },
      ],
      term: [
        { def_uid: 'b', score: 1 },
        { def_uid: 'c', score: 0.5 },
      ],
    });
    const { ranked } = fuse(p, index, new Set());
    expect(ranked.map((c) => c.def.def_uid)).to.deep.equal(['b', 'a', 'c']);
    expect(ranked[0]?.agreement).to.equal(2);
  });

  it('puts an explicit mention first and counts vanished definitions', () => {
    const p = pool({
      lexical: [
        { def_uid: 'a', score: 9 },
        { def_uid: 'gone', score: 8 },
      ],
      symbol: [{ def_uid: 'd', score: 0.1, explicit: true }],
    });
    const { ranked, dropped } = fuse(p, index, new Set());
    expect(ranked[0]?.def.def_uid).to.equal('d');
    expect(dropped).to.equal(1);
  });

  it('does not count expansion retrievers toward agreement', () => {
    const p = pool({ lexical: [{ def_uid: 'a', score: 1 }], graph: [{ def_uid: 'a', score: 1 }] });
    expect(fuse(p, index, new Set(['graph'])).ranked[0]?.agreement).to.equal(1);
  });
});
