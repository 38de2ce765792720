import { expect } from 'chai';
import { classifyPath } from '../../src/risk/paths.js';

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
