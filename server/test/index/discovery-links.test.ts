import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { discoverFiles } from '../../src/index/discovery.js';
import { LANGUAGES } from './fixture-repos.js';

/**
 * Discovery checks where a file really is with one realpath per directory and one lstat per file, and follows a
 * file's links only when a link is on its way: what it finds must be what a realpath per file finds.
 */
describe('server.index.discovery: links on the way', () => {
  function planted(git: boolean): { base: string; repo: string } {
    const base = makeTempDir('discovery-links-');
    const repo = join(base, 'real-repo');
    const outside = join(base, 'outside');
    const files: Record<string, string> = {
      'src/a.ts': 'export const a = 1;\n',
      'src/deep/b.ts': 'export const b = 22;\n',
      'top.ts': 'export const top = 333;\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), text);
    }
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.ts'), 'export const secret = "s3cr3t";\n');
    symlinkSync(join(repo, 'src', 'deep', 'b.ts'), join(repo, 'src', 'b-link.ts')); // a link that stays inside
    symlinkSync(join(outside, 'secret.ts'), join(repo, 'src', 'secret.ts')); // a link out
    symlinkSync('loop-b.ts', join(repo, 'loop-a.ts'));
    symlinkSync('loop-a.ts', join(repo, 'loop-b.ts'));
    if (git) {
      execFileSync('git', ['init', '-q'], { cwd: repo });
      execFileSync('git', ['add', '-A'], { cwd: repo });
    }
    // the repository opened through a link to it, as a user's checkout under a linked home can be
    symlinkSync(repo, join(base, 'repo'));
    return { base, repo: join(base, 'repo') };
  }

  for (const git of [true, false]) {
    const where = git ? 'in a git work tree' : 'without git';
    it(`${where}: files through a linked root, a link inside, a link out, loops`, async () => {
      const { repo } = planted(git);
      const found = await discoverFiles(repo, LANGUAGES);
      const sizes = Object.fromEntries(found.candidates.map((file) => [file.path, file.size]));
      expect(sizes).to.deep.equal({
        'src/a.ts': 20,
        'src/b-link.ts': 21, // the size of the file it leads to, inside the repository
        'src/deep/b.ts': 21,
        'top.ts': 24,
      });
      expect(found.skipped).to.deep.equal({ 'symlink-outside-repo': 1, 'symlink-loop': 2 });
    });
  }
});
