import { expect } from 'chai';
import { parseQuery } from '../../src/recon/query.js';
import { runRecon } from '../../src/recon/recon.js';
import { retrievalIndexOf } from '../../src/recon/retrieval-index.js';
import { runnerOf } from '../../src/recon/runner-of.js';
import { fixtureRepo, type FixtureRepo } from './fixture-repo.js';

/**
 * Names that exist only as an interface property, a member access, an object key or a parameter
 * are not definitions, and unresolved member references are not stored, yet they are in the code:
 * a task naming them is not UNSAT (issue 6: `optionsSchema` on agentgov itself).
 */
const PLUGIN_REPO: Record<string, string> = {
  'src/plugins/plugin.ts': `export interface Plugin {
  name: string;
  optionsSchema?: object;
  apply(options: unknown): void;
}
`,
  'src/plugins/loader.ts': `import type { Plugin } from './plugin.js';

export function loadPlugin(plugin: Plugin, options: unknown): void {
  if (plugin.optionsSchema && !conforms(plugin.optionsSchema, options)) throw new Error('bad options');
  plugin.apply(options);
}

function conforms(schema: object, value: unknown): boolean {
  return typeof value === 'object' && Object.keys(schema).length >= 0;
}
`,
  'src/config/defaults.ts': `export const DEFAULTS = { retryBudget: 3, colour: 'auto' };
`,
  'src/main.ts': `import { loadPlugin } from './plugins/loader.js';

const registry: { shutdownHook?: () => void } = {};
registry.shutdownHook = () => undefined;
loadPlugin({ name: 'demo', apply: (pluginSettings) => pluginSettings }, {});
`,
};

describe('recon/known names (real index): names outside definitions still exist', function () {
  this.timeout(60_000);
  let repo: FixtureRepo;
  before(async () => {
    repo = await fixtureRepo(PLUGIN_REPO);
  });
  after(async () => {
    await repo?.index.close();
  });

  it('knows property, member-access, object-key and parameter names; not names absent from the code', () => {
    const index = retrievalIndexOf(repo.index);
    for (const name of ['optionsSchema', 'retryBudget', 'shutdownHook', 'pluginSettings']) {
      expect(index.definitionsNamed(name), `${name} is no definition`).to.be.empty;
      expect(index.isKnownName(name), name).to.equal(true);
    }
    expect(index.isKnownName('loadPlugin')).to.equal(true);
    for (const name of ['frobnicateWidget', 'optionsSchem', 'OptionsSchema'])
      expect(index.isKnownName(name), name).to.equal(false);
  });

  it('a task naming an interface property / member access is not UNSAT, and the mention counts as found', async () => {
    const task = 'Where are plugin options validated against the plugin optionsSchema when plugins are loaded?';
    const result = await runRecon(parseQuery(task, [], []), runnerOf(repo.host), retrievalIndexOf(repo.index));
    expect(result.gate).to.not.equal('UNSAT');
    expect(result.metrics.gate_features.mentions_found).to.include('optionsSchema');
    expect(result.metrics.gate_features.mentions_missing).to.be.empty;
    expect(result.results.map((r) => r.path)).to.include('src/plugins/loader.ts');
  });

  it('object keys and member assignments found, truly absent identifiers still missing', async () => {
    const result = await runRecon(
      parseQuery('raise the retryBudget and call shutdownHook from frobnicateWidget', [], []),
      runnerOf(repo.host),
      retrievalIndexOf(repo.index),
    );
    expect(result.metrics.gate_features.mentions_found).to.include.members(['retryBudget', 'shutdownHook']);
    expect(result.metrics.gate_features.mentions_missing).to.deep.equal(['frobnicateWidget']);
    expect(result.gate).to.not.equal('UNSAT');
  });
});

describe('recon/retrieval view (real index): bounded text, caches that survive a restart', function () {
  this.timeout(60_000);
  let repo: FixtureRepo;
  before(async () => {
    repo = await fixtureRepo(PLUGIN_REPO);
  });
  after(async () => {
    await repo?.index.close();
  });

  /** Closes the fixture's index and opens it again, as a restarted server does; its retrieval view. */
  async function restartIndex() {
    const { openRepositoryIndex } = await import('../../src/index/repository-index.js');
    const { silentLogger } = await import('@agentgov/core');
    await repo.index.close();
    repo.index = await openRepositoryIndex({
      root: repo.root,
      languages: repo.host.registries.languages.values(),
      logger: silentLogger,
    });
    await repo.index.ready;
    return retrievalIndexOf(repo.index);
  }

  it('keeps its word list and product words under the content key, and reads them back after a restart', async () => {
    const { existsSync, readdirSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const view = retrievalIndexOf(repo.index);
    expect(view.cache?.dir).to.equal(join(repo.root, '.agentgov', 'cache'));
    expect(view.isKnownName('pluginSettings')).to.equal(true);
    view.isProductWord?.('fixture');
    const cached = readdirSync(view.cache!.dir).sort();
    // Product words need the file classes, whose generated-code marks are kept there too; the word list's pass over
    // the files makes the word-file counts as well.
    expect(cached).to.deep.equal(
      ['generated', 'product-words', 'word-files', 'words'].map((name) => `${name}-1-${view.cache!.key}.json`),
    );
    // A restart over the same content gets the same key and reads the list back (proved by editing it).
    const wordsFile = join(view.cache!.dir, `words-1-${view.cache!.key}.json`);
    writeFileSync(wordsFile, JSON.stringify(['onlyInTheCache']));
    const again = await restartIndex();
    expect(again.cache?.key).to.equal(view.cache!.key);
    expect(again.isKnownName('onlyInTheCache')).to.equal(true);
    // A changed file changes the key: the stale list is replaced.
    writeFileSync(join(repo.root, 'src/config/defaults.ts'), 'export const DEFAULTS = { brandNewKey: 1 };\n');
    await repo.index.refresh();
    const changed = retrievalIndexOf(repo.index);
    expect(changed.cache?.key).to.not.equal(view.cache!.key);
    expect(changed.isKnownName('brandNewKey')).to.equal(true);
    expect(changed.isKnownName('onlyInTheCache')).to.equal(false);
    expect(existsSync(wordsFile)).to.equal(false);
  });

  it('makes both word lists in one pass, each the same as when it is made alone', async () => {
    const { readFileSync, rmSync, statSync } = await import('node:fs');
    const { join } = await import('node:path');
    const count = (v: ReturnType<typeof retrievalIndexOf>) => v.wordFileCount?.('plugin') ?? -1;
    let view = await restartIndex();
    const file = (name: string) => join(view.cache!.dir, `${name}-1-${view.cache!.key}.json`);
    rmSync(file('words'), { force: true });
    rmSync(file('word-files'), { force: true });
    expect(view.isKnownName('pluginSettings')).to.equal(true);
    const together = { words: readFileSync(file('words'), 'utf8'), counts: readFileSync(file('word-files'), 'utf8') };
    expect(JSON.parse(together.counts)).to.deep.include(['plugin', count(view)]);
    expect(count(view)).to.be.above(0);

    // The word list alone (the counts persisted): the same list, the counts' file left as it was.
    rmSync(file('words'));
    const countsWritten = statSync(file('word-files')).mtimeMs;
    view = await restartIndex();
    expect(view.isKnownName('pluginSettings')).to.equal(true);
    expect(readFileSync(file('words'), 'utf8')).to.equal(together.words);
    expect(statSync(file('word-files')).mtimeMs).to.equal(countsWritten);

    // The counts alone (the word list persisted): the same counts.
    rmSync(file('word-files'));
    view = await restartIndex();
    expect(count(view)).to.be.above(0);
    expect(readFileSync(file('word-files'), 'utf8')).to.equal(together.counts);
  });

  it('keeps at most its cap of file text, least recently used dropped first, and still answers for every file', async () => {
    const { openRepositoryIndex } = await import('../../src/index/repository-index.js');
    const { silentLogger } = await import('@agentgov/core');
    const small = await openRepositoryIndex({
      root: repo.root,
      languages: repo.host.registries.languages.values(),
      logger: silentLogger,
      textCacheChars: 200,
    });
    try {
      await small.ready;
      const view = retrievalIndexOf(small);
      const sizes = view.files().map((path) => view.fileText(path)?.length ?? 0);
      expect(sizes.every((n) => n > 0)).to.equal(true);
      expect(sizes.reduce((a, b) => a + b, 0)).to.be.greaterThan(200);
      // Read again after eviction: same text.
      for (const path of view.files()) expect(view.fileText(path)?.length).to.equal(sizes[view.files().indexOf(path)]);
    } finally {
      await small.close();
    }
  });

  it('remembers at most its cap of names (server.index.known_names_max), least recently asked forgotten', async () => {
    const { readFileSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { openRepositoryIndex } = await import('../../src/index/repository-index.js');
    const { silentLogger } = await import('@agentgov/core');
    const open = (knownNamesMax: number) =>
      openRepositoryIndex({
        root: repo.root,
        languages: repo.host.registries.languages.values(),
        logger: silentLogger,
        textCacheChars: 1,
        knownNamesMax,
      });
    const main = join(repo.root, 'src/main.ts');
    const original = readFileSync(main, 'utf8');
    const capped = await open(1);
    const roomy = await open(100);
    try {
      await Promise.all([capped.ready, roomy.ready]);
      const views = [retrievalIndexOf(capped), retrievalIndexOf(roomy)];
      // A dotted name is found by reading the files (whose text is not kept either: a cap of one character).
      for (const view of views) expect(view.isKnownName('registry.shutdownHook')).to.equal(true);
      writeFileSync(main, original.replaceAll('registry.shutdownHook', 'registry.stopHook'));
      for (const view of views) expect(view.isKnownName('no.suchName')).to.equal(false);
      // The capped view forgot the first answer and reads the file again; the other still remembers it.
      expect(views[0]!.isKnownName('registry.shutdownHook')).to.equal(false);
      expect(views[1]!.isKnownName('registry.shutdownHook')).to.equal(true);
    } finally {
      writeFileSync(main, original);
      await Promise.all([capped.close(), roomy.close()]);
    }
  });
});
