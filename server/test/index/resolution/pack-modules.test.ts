import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import type { ExtractedFacts, LanguagePack, PackModulesContext } from '@agentgov/core';
import { openRepositoryIndex, type RepositoryIndex } from '../../../src/index/repository-index.js';
import { gitRepo, LANGUAGES, memoryLogger, removeRepos } from '../fixture-repos.js';

/**
 * A pack whose imports name directories (as Go packages do): `use <dir>` lines. It borrows the
 * Python grammar only to have a parser; its facts come from the text.
 */
function directoryImportPack(seen: PackModulesContext[]): LanguagePack {
  const python = LANGUAGES.find((pack) => pack.name === 'python')!;
  return {
    name: 'dirlang',
    extensions: ['.dl'],
    grammar: python.grammar,
    moduleSystem: 'pack',
    extract(_tree: unknown, source: string): ExtractedFacts {
      const imports = source
        .split('\n')
        .map((line, i) => ({ match: /^use (\S+)/.exec(line), line: i + 1 }))
        .filter(({ match }) => match)
        .map(({ match, line }) => ({
          specifier: match![1]!,
          kind: 'import' as const,
          bindings: [{ imported: '*', local: match![1]! }],
          star: false,
          line,
        }));
      return { definitions: [], references: [], imports, localExports: [] };
    },
    modules(context) {
      seen.push(context);
      const manifest = context.readText('dl.mod')?.trim() ?? '';
      return {
        resolve(_from, specifier) {
          if (!specifier.startsWith(`${manifest}/`)) return [];
          const dir = specifier.slice(manifest.length + 1);
          return [...context.files].filter((path) => path.startsWith(`${dir}/`) && path.endsWith('.dl')).sort();
        },
      };
    },
  };
}

describe("index: a language pack's own module resolution (moduleSystem 'pack')", () => {
  let index: RepositoryIndex;
  after(async () => {
    await index?.close();
    removeRepos();
  });

  it('gives one edge per file the pack resolves, none for external imports, and reads only repository files', async () => {
    const seen: PackModulesContext[] = [];
    const root = gitRepo({
      'dl.mod': 'example.com/app\n',
      'main.dl': 'use example.com/app/util\nuse fmt\n',
      'util/a.dl': 'x\n',
      'util/b.dl': 'y\n',
    });
    index = await openRepositoryIndex({
      root,
      languages: [...LANGUAGES, directoryImportPack(seen)],
      logger: memoryLogger().logger,
    });
    await index.ready;
    const edges = index.imports('main.dl').map((edge) => [edge.specifier, edge.to_path]);
    expect(edges).to.deep.equal([
      ['example.com/app/util', 'util/a.dl'],
      ['example.com/app/util', 'util/b.dl'],
      ['fmt', null],
    ]);
    expect(index.importers('util/b.dl').map((edge) => edge.from_path)).to.deep.equal(['main.dl']);
    expect(seen).to.have.length.greaterThan(0);
    expect(seen[0]!.files.has('util/a.dl')).to.equal(true);
    expect(seen[0]!.readText('../outside')).to.equal(null);
    expect(seen[0]!.readText('missing.mod')).to.equal(null);
    expect(seen[0]!.readText('dl.mod')).to.equal('example.com/app\n');
    // A symlink inside the repository that points out of it is not followed.
    const outside = join(makeTempDir('agentgov-outside-'), 'secret.txt');
    writeFileSync(outside, 'secret\n');
    symlinkSync(outside, join(root, 'link.mod'));
    expect(seen[0]!.readText('link.mod')).to.equal(null);
  });
});
