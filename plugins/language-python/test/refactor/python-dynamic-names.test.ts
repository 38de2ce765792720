import { expect } from 'chai';
import Parser from 'tree-sitter';
import Python from 'tree-sitter-python';
import { dynamicNameSources } from '../../src/refactor/python-dynamic-names.js';

const parser = new Parser();
parser.setLanguage(Python);
const sources = (text: string) => dynamicNameSources(parser.parse(text).rootNode).map((s) => `${s.kind}@${s.line}`);

describe('python names served at run time', () => {
  it("click's parser.py: a module __getattr__ mapping deprecated names through globals()", () => {
    const text =
      'class _OptionParser:\n    pass\n\n\ndef __getattr__(name: str) -> object:\n    if name in {"OptionParser"}:\n        return globals()[f"_{name}"]\n    raise AttributeError(name)\n';
    expect(sources(text)).to.deep.equal(['module __getattr__@5', 'globals()@7']);
  });

  it('globals() writes and lookups through methods, wherever they are', () => {
    expect(
      sources('def install(name, value):\n    globals().update({name: value})\n\nx = globals().get("y")\n'),
    ).to.deep.equal(['globals()@2', 'globals()@4']);
  });

  it('an __all__ built by code; a literal __all__ of strings is not', () => {
    expect(sources('__all__ = ["a", "b"]\n')).to.deep.equal([]);
    expect(sources('__all__ = ["a"]\n__all__ += ["b"]\n__all__.append("c")\n__all__ = list(names)\n')).to.deep.equal([
      '__all__@2',
      '__all__@3',
      '__all__@4',
    ]);
  });

  it('nothing dynamic: a method named __getattr__ and a call of a local globals-like name are not module-level sources', () => {
    expect(
      sources(
        'class Proxy:\n    def __getattr__(self, name):\n        return getattr(self._target, name)\n\n\ndef my_globals():\n    return {}\n\n\nmy_globals()["x"]\n',
      ),
    ).to.deep.equal([]);
  });
});
