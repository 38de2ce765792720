import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { AgentgovError } from '@agentgov/core';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { expect } from 'chai';
import { resolveRepoPath } from '../../src/paths/repo-path.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof AgentgovError ? error.code : 'not-an-AgentgovError';
  }
}

describe('resolveRepoPath', () => {
  let repo: string;
  before(() => {
    const outside = makeTempDir('agentgov-outside-');
    repo = makeTempDir('agentgov-repo-');
    writeTree(outside, { 'secret.txt': 'x' });
    writeTree(repo, { 'src/a.ts': 'export {}', 'docs/readme.md': '#' });
    symlinkSync(outside, join(repo, 'escape'));
    symlinkSync(join(outside, 'secret.txt'), join(repo, 'src', 'secret-link.txt'));
    symlinkSync(join(repo, 'src'), join(repo, 'src-alias'));
    mkdirSync(join(repo, 'empty'));
  });

  const accepted: [string, string][] = [
    ['src/a.ts', 'src/a.ts'],
    ['./src/../docs/readme.md', 'docs/readme.md'],
    ['src/new-file.ts', 'src/new-file.ts'],
    ['empty/deeper/not-yet.ts', 'empty/deeper/not-yet.ts'],
    ['src-alias/a.ts', 'src-alias/a.ts'],
    ['.', ''],
  ];
  for (const [input, relative] of accepted) {
    it(`accepts ${input}`, () => {
      expect(resolveRepoPath(repo, input).relative).to.equal(relative);
    });
  }
  it('accepts an absolute path inside the repository', () => {
    expect(resolveRepoPath(repo, join(repo, 'src', 'a.ts')).relative).to.equal('src/a.ts');
  });

  const refused: [string, string][] = [
    ['../outside.txt', '.. climbing out'],
    ['src/../../x', '.. climbing out through a subdirectory'],
    ['/etc/passwd', 'absolute path elsewhere'],
    ['escape/secret.txt', 'symlinked directory pointing out'],
    ['src/secret-link.txt', 'symlinked file pointing out'],
    ['escape/not-there.txt', 'missing file under a symlink pointing out'],
  ];
  for (const [input, why] of refused) {
    it(`refuses ${input} (${why}) with E_PATH_OUTSIDE_REPO`, () => {
      expect(codeOf(() => resolveRepoPath(repo, input))).to.equal('E_PATH_OUTSIDE_REPO');
    });
  }
  it('refuses an empty path or a NUL byte with E_INVALID_ARGUMENT', () => {
    expect(codeOf(() => resolveRepoPath(repo, ''))).to.equal('E_INVALID_ARGUMENT');
    expect(codeOf(() => resolveRepoPath(repo, 'src/a\0.ts'))).to.equal('E_INVALID_ARGUMENT');
  });
});
