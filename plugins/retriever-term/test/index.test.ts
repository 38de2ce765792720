import { expect } from 'chai';
import { fixtureDef, MemoryRetrievalIndex } from '@agentgov/core/testing';
import type { RetrievalQuery } from '@agentgov/core';
import { createTermRetriever } from '../src/index.js';

function query(terms: string[], identifiers: string[] = []): RetrievalQuery {
  return { task: '', terms, identifiers, paths: [], quoted: [], seeds: [], pins: [] };
}

describe('retriever-term', () => {
  const defs = [
    fixtureDef('a.ts', 'serializeValue', 1, 2),
    fixtureDef('a.ts', 'serializer', 3, 4),
    fixtureDef('b.ts', 'send', 1, 2, { qualified_name: 'Response.send', def_uid: 'b.ts#Response.send' }),
    fixtureDef('c.ts', 'unrelated', 1, 2),
  ];
  const index = new MemoryRetrievalIndex({ 'a.ts': '', 'b.ts': '', 'c.ts': '' }, defs);
  const retriever = createTermRetriever({ limit: 10 });
  const scores = async (q: RetrievalQuery) =>
    Object.fromEntries((await retriever.retrieve(q, { index })).map((c) => [c.def_uid, c.score]));

  it('scores an exact identifier 1 and a whole-name term near 1', async () => {
    const s = await scores(query(['send'], ['serializeValue']));
    expect(s['a.ts#serializeValue']).to.equal(1);
    expect(s['b.ts#Response.send']).to.be.greaterThan(0.4);
    expect(s).to.not.have.property('c.ts#unrelated');
  });

  it('matches dotted identifiers on qualified names', async () => {
    expect((await scores(query([], ['Response.send'])))['b.ts#Response.send']).to.equal(1);
  });

  it('matches partial words by prefix and covers more words higher', async () => {
    const s = await scores(query(['serialize', 'value']));
    expect(s['a.ts#serializeValue']).to.be.greaterThan(s['a.ts#serializer'] ?? 0);
    expect(s['a.ts#serializer']).to.be.greaterThan(0);
  });

  it('keeps the best candidates by score, then uid, whatever the limit', async () => {
    // many names sharing the task's words, several scoring the same (ties broken by uid)
    const many = Array.from({ length: 60 }, (_, i) =>
      fixtureDef(`m${i % 7}.ts`, ['parseValue', 'parseValueList', 'valueParser', 'parseOtherValue'][i % 4]!, i, i + 1, {
        def_uid: `uid-${String((i * 37) % 60).padStart(2, '0')}`,
      }),
    );
    const files = Object.fromEntries(many.map((def) => [def.path, '']));
    const big = new MemoryRetrievalIndex(files, many);
    const all = await createTermRetriever({ limit: 1000 }).retrieve(query(['parse', 'value']), { index: big });
    expect(all.length).to.equal(60);
    for (const limit of [1, 5, 14, 15, 16, 59, 60, 61]) {
      const some = await createTermRetriever({ limit }).retrieve(query(['parse', 'value']), { index: big });
      expect(some, `limit ${limit}`).to.deep.equal(all.slice(0, limit));
    }
  });
});
