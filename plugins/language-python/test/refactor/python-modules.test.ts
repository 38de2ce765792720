import { expect } from 'chai';
import {
  absoluteModule,
  PythonModuleNames,
  relativeSpecifier,
  renamedModule,
} from '../../src/refactor/python-modules.js';

describe('python module names', () => {
  const packages = new Set(['src/flask', 'src/flask/json', 'pkg']);
  const names = new PythonModuleNames((dir) => packages.has(dir));

  const modules: [string, string, string[]][] = [
    ['src/flask/helpers.py', 'flask.helpers', ['flask']],
    ['src/flask/__init__.py', 'flask', ['flask']],
    ['src/flask/json/provider.py', 'flask.json.provider', ['flask', 'json']],
    ['pkg/core.py', 'pkg.core', ['pkg']],
    ['script.py', 'script', []],
  ];
  for (const [path, module, pkg] of modules) {
    it(`${path} is module ${module} in package [${pkg.join('.')}]`, () => {
      expect(names.moduleOf(path)).to.equal(module);
      expect(names.packageOf(path)).to.deep.equal(pkg);
    });
  }

  const absolute: [string, string[], string | null][] = [
    ['flask.helpers', ['x'], 'flask.helpers'],
    ['.helpers', ['flask'], 'flask.helpers'],
    ['..helpers', ['flask', 'json'], 'flask.helpers'],
    ['.', ['flask', 'json'], 'flask.json'],
    ['...x', ['flask'], null],
  ];
  for (const [specifier, from, module] of absolute) {
    it(`${specifier} from ${from.join('.')} is ${module}`, () =>
      expect(absoluteModule(specifier, from)).to.equal(module));
  }

  const relative: [string, string[], string | null][] = [
    ['flask.helpers', ['flask'], '.helpers'],
    ['flask.helpers', ['flask', 'json'], '..helpers'],
    ['flask.json.tag', ['flask'], '.json.tag'],
    ['other.mod', ['flask'], null],
  ];
  for (const [module, from, specifier] of relative) {
    it(`${module} from ${from.join('.')} is spelled ${specifier}`, () =>
      expect(relativeSpecifier(module, from)).to.equal(specifier));
  }

  it('renames a module and its submodules, nothing else', () => {
    expect(renamedModule('flask.json', 'flask.json', 'flask.serial')).to.equal('flask.serial');
    expect(renamedModule('flask.json.tag', 'flask.json', 'flask.serial')).to.equal('flask.serial.tag');
    expect(renamedModule('flask.jsonx', 'flask.json', 'flask.serial')).to.equal(null);
  });
});
