import { expect } from 'chai';
import { fixtureDef, MemoryRetrievalIndex } from '@agentgov/core/testing';
import type { RetrievalQuery } from '@agentgov/core';
import { createSymbolRetriever } from '../src/index.js';

function query(extra: Partial<RetrievalQuery>): RetrievalQuery {
  return { task: '', terms: [], identifiers: [], paths: [], quoted: [], seeds: [], pins: [], ...extra };
}

describe('retriever-symbol', () => {
  const defs = [
    fixtureDef('src/app.ts', 'createApp', 1, 5),
    fixtureDef('src/app.ts', 'listen', 6, 9, { qualified_name: 'App.listen', def_uid: 'src/app.ts#App.listen' }),
    fixtureDef('src/router/index.ts', 'route', 1, 4),
  ];
  const index = new MemoryRetrievalIndex({ 'src/app.ts': '', 'src/router/index.ts': '' }, defs);
  const retriever = createSymbolRetriever({ maxExplicitMatches: 5 });
  const run = async (q: Partial<RetrievalQuery>) =>
    (await retriever.retrieve(query(q), { index })).sort((a, b) => a.def_uid.localeCompare(b.def_uid));

  it('injects seeds and pins as explicit candidates', async () => {
    const out = await run({ seeds: ['route'], pins: ['src/app.ts'] });
    expect(out.map((c) => [c.def_uid, c.explicit])).to.deep.equal([
      ['src/app.ts#App.listen', true],
      ['src/app.ts#createApp', true],
      ['src/router/index.ts#route', true],
    ]);
  });

  it('resolves paths by suffix and identifiers by qualified name', async () => {
    const out = await run({ paths: ['router/index.ts'], identifiers: ['App.listen'] });
    expect(out.map((c) => c.def_uid)).to.deep.equal(['src/app.ts#App.listen', 'src/router/index.ts#route']);
  });

  it('produces nothing for identifiers and paths the index lacks', async () => {
    expect(await run({ identifiers: ['frobnicate'], paths: ['src/missing.ts'], seeds: ['nope'] })).to.deep.equal([]);
  });

  it('a bare file name shared by several files pins none of them; a longer suffix names its one file', async () => {
    const shared = new MemoryRetrievalIndex(
      { 'pkg/__init__.py': '', 'lib/a/__init__.py': '', 'other/__init__.py': '' },
      [
        fixtureDef('pkg/__init__.py', 'load', 1, 2),
        fixtureDef('lib/a/__init__.py', 'helper', 1, 2),
        fixtureDef('other/__init__.py', 'other', 1, 2),
      ],
    );
    const bare = await retriever.retrieve(query({ paths: ['__init__.py'] }), { index: shared });
    expect(bare).to.have.length(3);
    expect(bare.every((c) => !c.explicit && c.score < 0.8)).to.equal(true);
    const named = await retriever.retrieve(query({ paths: ['a/__init__.py'] }), { index: shared });
    expect(named.map((c) => [c.def_uid, c.score, c.explicit])).to.deep.equal([['lib/a/__init__.py#helper', 0.8, true]]);
  });
});
