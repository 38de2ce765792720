import { expect } from 'chai';
import { fixtureDef, MemoryRetrievalIndex } from '@agentgov/core/testing';
import type { RetrievalQuery, RetrieverCandidate } from '@agentgov/core';
import { createGraphRetriever } from '../src/index.js';

const q: RetrievalQuery = { task: '', terms: [], identifiers: [], paths: [], quoted: [], seeds: [], pins: [] };
const prior = (entries: Record<string, RetrieverCandidate[]>) =>
  new Map(Object.entries(entries).map(([n, cs]) => [n, new Map(cs.map((c) => [c.def_uid, c]))]));

describe('retriever-graph', () => {
  const defs = ['a', 'b', 'c', 'hubCaller', 'x'].map((n) => fixtureDef('f.ts', n, 1, 2));
  const uid = (n: string) => `f.ts#${n}`;
  const index = new MemoryRetrievalIndex(
    { 'f.ts': '' },
    defs,
    [
      { from: uid('a'), to: uid('b'), relation: 'callee' },
      { from: uid('a'), to: uid('hubCaller'), relation: 'caller' },
      { from: uid('x'), to: uid('c'), relation: 'callee' },
    ],
    { [uid('hubCaller')]: 20 },
  );
  const retriever = createGraphRetriever({ maxStarts: 10, limit: 10, signalDepth: 10 });

  it('expands only from candidates with two signals or an explicit mention', async () => {
    const out = await retriever.retrieve(q, {
      index,
      prior: prior({
        lexical: [
          { def_uid: uid('a'), score: 1 },
          { def_uid: uid('x'), score: 0.9 },
        ],
        term: [{ def_uid: uid('a'), score: 1 }],
      }),
    });
    const reached = out.map((c) => c.def_uid);
    expect(reached).to.include.members([uid('b'), uid('hubCaller')]);
    expect(reached).to.not.include(uid('c'));
  });

  it('uses PageRank as a prior and starts from an explicit mention alone', async () => {
    const out = await retriever.retrieve(q, {
      index,
      prior: prior({ symbol: [{ def_uid: uid('a'), score: 1, explicit: true }] }),
    });
    expect(out[0]?.def_uid).to.equal(uid('hubCaller'));
  });

  it('returns nothing without a prior pool', async () => {
    expect(await retriever.retrieve(q, { index })).to.deep.equal([]);
  });
});
