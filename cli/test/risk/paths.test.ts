import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { classifyPath, realTarget } from '../../src/risk/paths.js';

const patterns = new Map([['secret', [/^~\/\.ssh\/id_[^/]+$/]]]);
const classes = (raw: string, cwd: string | null = '/h/p', env: Record<string, string> = {}) =>
  classifyPath(raw, { cwd, projectRoot: '/h/p', home: '/h', env, classPatterns: patterns }).classes;

describe('paths: classes a rule can name', function () {
  const table: Array<[string, string[]]> = [
    ['/', ['root', 'outside_project', 'project_ancestor']],
    ['/*', ['root', 'outside_project', 'project_ancestor']],
    ['~', ['home', 'outside_project', 'project_ancestor']],
    ['$HOME/', ['home', 'outside_project', 'project_ancestor']],
    ['.', ['project_root']],
    ['*', ['project_root']],
    ['src/x', ['project']],
    ['src/*.ts', ['project', 'glob']],
    ['..', ['home', 'outside_project', 'project_ancestor']],
    ['../q', ['outside_project', 'home_content']],
    ['/tmp/x', ['temp']],
    ['$TMPDIR/x', ['temp']],
    ['~/.cache/pip', ['temp']],
    ['/etc/x', ['outside_project']],
    ['~/.ssh/id_rsa', ['outside_project', 'home_content', 'secret']],
    ['$FOO/x', ['dynamic']],
    ['$(pwd)/x', ['project']],
    ['$(git rev-parse --show-toplevel)/dist', ['project']],
  ];
  for (const [raw, expected] of table) {
    it(`${raw} → ${expected.join(', ')}`, function () {
      expect(classes(raw)).to.deep.equal(expected);
    });
  }

  it('a relative path with no known directory is unknown', function () {
    expect(classes('x', null)).to.deep.equal(['unknown']);
  });

  it('variables set on the command line are expanded', function () {
    expect(classes('$TMPDIR', '/h/p', { TMPDIR: '/' })).to.include('root');
    expect(classes('$TMPDIR/x', '/h/p', { TMPDIR: '/srv' })).to.deep.equal(['outside_project']);
  });

  it('a run-time value under / inherits root', function () {
    expect(classes('/${RUNTIME_INPUT}')).to.deep.equal(['dynamic', 'root', 'outside_project', 'project_ancestor']);
    expect(classes('./${RUNTIME_INPUT}')).to.deep.equal(['dynamic']);
  });
});

describe('paths: realTarget, where a path really points', function () {
  let root: string;
  before(function () {
    root = realpathSync(makeTempDir('real-target'));
    mkdirSync(join(root, 'home', '.ssh'), { recursive: true });
    mkdirSync(join(root, 'project'));
    writeFileSync(join(root, 'project', 'notes.txt'), '');
    symlinkSync(join(root, 'home', '.ssh'), join(root, 'project', 'keys'));
    symlinkSync(join(root, 'nowhere'), join(root, 'project', 'dangling'));
  });

  it('follows a link on the way and keeps the missing rest as written', function () {
    expect(realTarget(join(root, 'project', 'keys'))).to.equal(join(root, 'home', '.ssh'));
    expect(realTarget(join(root, 'project', 'keys', 'id_rsa'))).to.equal(join(root, 'home', '.ssh', 'id_rsa'));
    expect(realTarget(join(root, 'project', 'keys', 'a', 'b'))).to.equal(join(root, 'home', '.ssh', 'a', 'b'));
  });

  it('resolves a dangling link, a file used as a directory and a missing path by their parents', function () {
    expect(realTarget(join(root, 'project', 'dangling'))).to.equal(join(root, 'project', 'dangling'));
    expect(realTarget(join(root, 'project', 'notes.txt', 'x'))).to.equal(join(root, 'project', 'notes.txt', 'x'));
    expect(realTarget(join(root, 'project', 'status'))).to.equal(join(root, 'project', 'status'));
  });

  it('records the existing ancestors it resolved and answers from them', function () {
    const known = new Map<string, string>();
    expect(realTarget(join(root, 'project', 'keys', 'config'), known)).to.equal(join(root, 'home', '.ssh', 'config'));
    expect(known.get(join(root, 'project', 'keys'))).to.equal(join(root, 'home', '.ssh'));
    expect(known.has(join(root, 'project', 'keys', 'config'))).to.equal(false);
    // What the map says is believed: one assessment reads each directory once.
    known.set(join(root, 'project'), '/elsewhere');
    expect(realTarget(join(root, 'project', 'new.txt'), known)).to.equal('/elsewhere/new.txt');
  });

  it('records the paths it found missing, and a path recorded missing is resolved by its parent', function () {
    const known = new Map<string, string>();
    const missing = new Set<string>();
    expect(realTarget(join(root, 'project', 'a', 'b'), known, missing)).to.equal(join(root, 'project', 'a', 'b'));
    expect([...missing]).to.deep.equal([join(root, 'project', 'a', 'b'), join(root, 'project', 'a')]);
    expect(known.get(join(root, 'project'))).to.equal(join(root, 'project'));
    // Believed like the map: `keys` exists, but recorded missing it is not read again.
    missing.add(join(root, 'project', 'keys'));
    expect(realTarget(join(root, 'project', 'keys', 'id_rsa'), known, missing)).to.equal(
      join(root, 'project', 'keys', 'id_rsa'),
    );
  });
});
