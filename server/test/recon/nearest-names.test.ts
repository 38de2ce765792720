import { expect } from 'chai';
import { nearestNames } from '../../src/recon/nearest-names.js';
import { retrievalIndexOf } from '../../src/recon/retrieval-index.js';
import { fixtureRepo, SERVICE_REPO, type FixtureRepo } from './fixture-repo.js';

describe('recon/nearest-names (real index)', function () {
  this.timeout(60_000);
  let repo: FixtureRepo;
  before(async () => {
    repo = await fixtureRepo(SERVICE_REPO);
  });
  after(async () => {
    await repo?.index.close();
  });

  const cases: [string, string][] = [
    ['LruCach', 'LruCache'],
    ['lrucache', 'LruCache'],
    ['openConection', 'openConnection'],
    ['computeTotals', 'computeTotal'],
  ];
  for (const [missing, expected] of cases) {
    it(`suggests ${expected} first for ${missing}`, () => {
      expect(nearestNames([missing], retrievalIndexOf(repo.index))[missing]?.[0]).to.equal(expected);
    });
  }

  it('suggests nothing for a name unlike any definition, and nothing is asked for nothing', () => {
    const view = retrievalIndexOf(repo.index);
    expect(nearestNames(['SpaceshipPanel'], view)).to.deep.equal({ SpaceshipPanel: [] });
    expect(nearestNames([], view)).to.deep.equal({});
  });
});
