import { expect } from 'chai';
import { KeptWhileUsed } from '../../src/graph/kept-while-used.js';
import { GRAPH_IDLE_BEFORE_PRESSURE_MS, openRepositoryIndex } from '../../src/index/repository-index.js';
import { buildLean, keepUnderMemoryTarget, setMemoryTarget } from '../../src/memory.js';
import { fixtureRepo, reconHost } from '../recon/fixture-repo.js';
import { silentLogger } from '@agentgov/core';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh index (its own, not the fixture's) of two files, one calling the other. */
async function twoFileIndex(options: { graphKeepMs?: number } = {}) {
  const repo = await fixtureRepo({
    'src/a.ts': 'import { b } from "./b";\nexport function a(): number {\n  return b();\n}\n',
    'src/b.ts': 'export function b(): number {\n  return 1;\n}\n',
  });
  await repo.index.close();
  const host = await reconHost();
  const languages = host.registries.languages.values();
  return openRepositoryIndex({ root: repo.root, languages, logger: silentLogger, ...options });
}

describe('KeptWhileUsed: a large value held while calls ask for it, let go when they stop', function () {
  this.timeout(60_000);

  it('is built once while asked for within the keep time; each ask starts the time over; built again after it', async () => {
    let builds = 0;
    const kept = new KeptWhileUsed(150);
    const build = () => ({ id: ++builds });
    const first = kept.get(build);
    await sleep(100);
    expect(kept.get(build)).to.equal(first);
    await sleep(100);
    expect(kept.get(build), '200 ms after the first ask, 100 after the last').to.equal(first);
    await sleep(300);
    const again = kept.get(build);
    expect(again).to.not.equal(first);
    expect(builds).to.equal(2);
    kept.clear();
  });

  it('0 keeps it for the synchronous part of the call that asked, no longer', async () => {
    let builds = 0;
    const kept = new KeptWhileUsed(0);
    const build = () => ({ id: ++builds });
    const first = kept.get(build);
    expect(kept.get(build), 'asked twice by one call').to.equal(first);
    await sleep(5);
    expect(kept.get(build)).to.not.equal(first);
    expect(builds).to.equal(2);
    kept.clear();
  });

  it('tells its owner when it let the value go for want of use, not when cleared', async () => {
    const expired: number[] = [];
    const kept = new KeptWhileUsed(50, () => expired.push(1));
    kept.get(() => ({}));
    kept.clear();
    await sleep(120);
    expect(expired, 'cleared: nothing to tell').to.deep.equal([]);
    const value = kept.get(() => ({}));
    await sleep(120);
    expect(expired).to.deep.equal([1]);
    expect(kept.get(() => ({}))).to.not.equal(value);
    kept.clear();
  });

  it('clear() lets the value go at once, and no timer keeps the process alive', () => {
    let builds = 0;
    const kept = new KeptWhileUsed(60_000);
    kept.get(() => ++builds);
    kept.clear();
    kept.get(() => ++builds);
    expect(builds).to.equal(2);
    kept.clear();
  });

  it('releaseIfIdle lets the value go only when nothing asked for it within the given time', async () => {
    let builds = 0;
    const kept = new KeptWhileUsed(60_000);
    expect(kept.releaseIfIdle(0), 'nothing held').to.equal(false);
    kept.get(() => ++builds);
    expect(kept.releaseIfIdle(1_000), 'asked for just now').to.equal(false);
    expect(kept.get(() => ++builds)).to.equal(1);
    await sleep(60);
    expect(kept.releaseIfIdle(50)).to.equal(true);
    expect(
      kept.get(() => ++builds),
      'built again when asked for',
    ).to.equal(2);
    kept.clear();
  });

  it('peek answers the value held, without building it or counting as an ask', async () => {
    const kept = new KeptWhileUsed(60_000);
    expect(kept.peek()).to.equal(undefined);
    const value = kept.get(() => ({}));
    expect(kept.peek()).to.equal(value);
    await sleep(60);
    expect(kept.peek()).to.equal(value);
    expect(kept.releaseIfIdle(50), 'peeking is not asking').to.equal(true);
    expect(kept.peek()).to.equal(undefined);
  });

  it('near the memory target a one-time build lets the index graph go, even one a call has just used', async () => {
    const index = await twoFileIndex();
    try {
      await index.ready;
      const first = index.defGraph();
      expect(index.keptDefGraph!(), 'held').to.equal(first);
      buildLean(() => 'built');
      expect(index.keptDefGraph!(), 'no target: kept').to.equal(first);
      setMemoryTarget(1);
      buildLean(() => 'built');
      expect(index.keptDefGraph!(), 'let go').to.equal(undefined);
      const again = index.defGraph();
      expect(again, 'built again when asked for').to.not.equal(first);
      expect(again.order).to.equal(first.order);
    } finally {
      setMemoryTarget(0);
      await index.close();
    }
  });

  it("over the server's memory target the index lets its definition graph go once no call has asked for it", async () => {
    const index = await twoFileIndex();
    const overTarget = async () => {
      let done = false;
      keepUnderMemoryTarget({ rss: () => 2 * 1024 * 1024, collect: async () => undefined, done: () => (done = true) });
      while (!done) await sleep(5);
      setMemoryTarget(1);
    };
    try {
      await index.ready;
      setMemoryTarget(1);
      const first = index.defGraph();
      await overTarget();
      expect(index.defGraph(), 'asked for just now: kept').to.equal(first);
      await sleep(GRAPH_IDLE_BEFORE_PRESSURE_MS + 100);
      await overTarget();
      const again = index.defGraph();
      expect(again, 'let go, built again').to.not.equal(first);
      expect(again.order).to.equal(first.order);
    } finally {
      setMemoryTarget(0);
      await index.close();
    }
  });

  it("the index's definition graph: kept for graph_keep_seconds after its last use, then built again, the same", async () => {
    const index = await twoFileIndex({ graphKeepMs: 150 });
    try {
      await index.ready;
      const first = index.defGraph();
      expect(first.order).to.be.above(1);
      expect(first.size).to.be.above(0);
      await sleep(50);
      expect(index.defGraph(), 'asked again within the keep time').to.equal(first);
      await sleep(400);
      const again = index.defGraph();
      expect(again).to.not.equal(first);
      // the same nodes and edges (edge keys are generated per graph)
      const shape = (graph: typeof first) => ({
        nodes: graph.export().nodes,
        edges: graph.mapEdges((_edge, attributes, source, target) => ({ source, target, attributes })),
      });
      expect(shape(again)).to.deep.equal(shape(first));
    } finally {
      await index.close();
    }
  });
});
