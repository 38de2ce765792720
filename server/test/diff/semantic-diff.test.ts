import { execFileSync } from 'node:child_process';
import { writeFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { silentLogger } from '@agentgov/core';
import { diffRefs } from '../../src/diff/semantic-diff.js';
import { openRepositoryIndex, type RepositoryIndex } from '../../src/index/repository-index.js';
import { listedTools } from '../../src/tools/index.js';
import { connectClient } from '../mcp/session-client.js';
import { reconHost } from '../recon/fixture-repo.js';

const V1 = `export function alpha(x: number): number {
  return x + 1;
}

export function beta(s: string): string {
  return s.trim();
}

export function gamma(): number {
  return 42;
}

export function delta(): void {
  console.log('delta');
}
`;

const V2 = `export function alphaRenamed(x: number): number {
  return x + 1;
}

export function beta(s: string): string {
  return s.trim().toLowerCase();
}

export function gamma(scale: number): number {
  return 42;
}

export function epsilon(): string {
  return 'new';
}
`;

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
    encoding: 'utf8',
  });
}

type Change = { change: string; name: string; old_name?: string; path: string };
const summary = (changes: Change[]) =>
  changes.map((c) => `${c.change} ${c.old_name ? `${c.old_name}→` : ''}${c.name}`).sort();

describe('diff/semantic-diff (real git repository)', function () {
  this.timeout(60_000);
  let root: string;
  let languages: Awaited<ReturnType<typeof reconHost>>['registries']['languages'];
  before(async () => {
    root = makeTempDir('agentgov-diff-');
    writeTree(root, { 'src/a.ts': V1, 'src/keep.ts': 'export const keep = 1;\n', 'README.md': '# r\n' });
    git(root, 'init', '-q');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'v1');
    writeTree(root, { 'src/a.ts': V2, 'README.md': '# r2\n' });
    git(root, 'commit', '-qam', 'v2');
    languages = (await reconHost()).registries.languages;
  });

  it('across commits: rename, body edit, signature change, added and removed definitions; unparsable files are counted', async () => {
    const result = await diffRefs(root, 'HEAD~1', 'HEAD', [], languages.values());
    expect(summary(result.changes)).to.deep.equal([
      'added epsilon',
      'modified beta',
      'removed delta',
      'renamed alpha→alphaRenamed',
      'signature_changed gamma',
    ]);
    expect(result.counts).to.deep.equal({ added: 1, removed: 1, modified: 1, renamed: 1, signature_changed: 1 });
    expect(result.skipped).to.deep.equal([{ path: 'README.md', reason: 'no language pack parses this file' }]);
    const gamma = result.changes.find((c) => c.name === 'gamma');
    expect(gamma).to.include({
      old_signature: 'function gamma(): number',
      signature: 'function gamma(scale: number): number',
    });
  });

  it('against the working tree, including untracked files and a moved file', async () => {
    writeTree(root, {
      'src/a.ts': V2.replace("'new'", "'newer'"),
      'src/fresh.ts': 'export function zeta() {\n  return 0;\n}\n',
    });
    git(root, 'mv', 'src/keep.ts', 'src/kept.ts');
    try {
      const result = await diffRefs(root, 'HEAD', null, [], languages.values());
      expect(result.target).to.equal('working tree');
      expect(summary(result.changes)).to.deep.equal(['added zeta', 'modified epsilon']);
      const limited = await diffRefs(root, 'HEAD', null, ['src/fresh.ts'], languages.values());
      expect(summary(limited.changes)).to.deep.equal(['added zeta']);
    } finally {
      git(root, 'mv', 'src/kept.ts', 'src/keep.ts');
      git(root, 'checkout', '--', 'src/a.ts');
      unlinkSync(join(root, 'src/fresh.ts'));
    }
  });

  describe('semantic_diff tool over MCP', () => {
    let index: RepositoryIndex;
    let session: Awaited<ReturnType<typeof connectClient>>;
    const call = async (args: Record<string, unknown>) =>
      (await session.client.callTool({ name: 'semantic_diff', arguments: args })).structuredContent as Record<
        string,
        unknown
      > & { error?: { code: string } };
    before(async () => {
      const host = await reconHost();
      index = await openRepositoryIndex({ root, languages: host.registries.languages.values(), logger: silentLogger });
      await index.ready;
      session = await connectClient({ repoRoot: root, index, host, devMode: false, tools: listedTools(false) });
    });
    after(async () => {
      await session?.close();
      await index?.close();
    });

    it('defaults to HEAD against the working tree', async () => {
      const clean = await call({});
      expect(clean['changes']).to.deep.equal([]);
      expect(clean['base']).to.equal('HEAD');
    });

    it('epoch:N compares the current index with the definitions of an earlier epoch', async () => {
      const before = index.epoch();
      writeFileSync(
        join(root, 'src/a.ts'),
        `${V2.replace('x + 1', 'x + 2')}\nexport function omega(): number {\n  return 1;\n}\n`,
      );
      try {
        await index.refresh();
        expect(index.epoch()).to.be.greaterThan(before);
        const result = await call({ base: `epoch:${before}` });
        expect(summary(result['changes'] as Change[])).to.deep.equal(['added omega', 'modified alphaRenamed']);
        expect((await call({ base: `epoch:${index.epoch() + 5}` })).error?.code).to.equal('E_NOT_FOUND');
      } finally {
        git(root, 'checkout', '--', 'src/a.ts');
        await index.refresh();
      }
    });

    const bad: [string, Record<string, unknown>, string][] = [
      ['an unknown ref', { base: 'no-such-branch' }, 'E_NOT_FOUND'],
      ['an unknown target', { base: 'HEAD', target: 'deadbeefdeadbeef' }, 'E_NOT_FOUND'],
      ['an option-like ref', { base: '--output=/tmp/x' }, 'E_INVALID_ARGUMENT'],
      ['a path outside the repository', { paths: ['../../etc'] }, 'E_PATH_OUTSIDE_REPO'],
      ['paths of the wrong type', { paths: 'src' }, 'E_INVALID_ARGUMENT'],
      ['an epoch base with a target', { base: 'epoch:0', target: 'HEAD' }, 'E_INVALID_ARGUMENT'],
    ];
    for (const [name, args, code] of bad) {
      it(`answers ${code} for ${name}`, async () => {
        expect((await call(args)).error?.code).to.equal(code);
      });
    }
  });
});

describe('diff/semantic-diff outside git', function () {
  this.timeout(60_000);
  let languages: Awaited<ReturnType<typeof reconHost>>['registries']['languages'];
  before(async () => {
    languages = (await reconHost()).registries.languages;
  });

  it('says the directory is not a git checkout (E_NOT_A_GIT_REPOSITORY), not that HEAD is unknown', async () => {
    const root = makeTempDir('agentgov-diff-nogit-');
    writeTree(root, { 'src/a.ts': V1 });
    const failure = await diffRefs(root, 'HEAD', null, [], languages.values()).then(
      () => null,
      (error: { code: string; message: string }) => error,
    );
    expect(failure?.code).to.equal('E_NOT_A_GIT_REPOSITORY');
    expect(failure?.message).to.include('not a git checkout');
  });

  it('says a repository has no commits yet when HEAD does not exist', async () => {
    const root = makeTempDir('agentgov-diff-empty-');
    writeTree(root, { 'src/a.ts': V1 });
    git(root, 'init', '-q');
    const failure = await diffRefs(root, 'HEAD', null, [], languages.values()).then(
      () => null,
      (error: { code: string; message: string }) => error,
    );
    expect(failure?.code).to.equal('E_NOT_FOUND');
    expect(failure?.message).to.include('no commits yet');
  });
});
