import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { ensureTestVenv } from '@agentgov/core/testing';
import { serveRepository, type ServeSession } from './mcp-serve-session.js';

type Hunk = { line: number; column: number; old: string; new: string; certainty: string };
type Preview = {
  edits: Array<{ path: string; hunks: Hunk[] }>;
  counts: Record<string, number>;
  warnings: string[];
  unedited: Array<{ path: string; line: number; reason: string }>;
};

/** Every receiver kind the Python engine types, each use on its own line (the comment says what it should be). */
export const SHOP = {
  'shop/__init__.py': '',
  'shop/runner.py': [
    'class Runner:',
    '    def invoke(self, x):',
    '        return x + 1',
    '',
    '',
    'class Other:',
    '    def invoke(self, x):',
    '        return x - 1',
    '',
    '',
    'class FastRunner(Runner):',
    '    def go(self):',
    '        return self.invoke(1)  # self in a subclass: high',
    '',
    '',
    'def make() -> Runner:',
    '    return Runner()',
    '',
    '',
    'def make_other() -> "Other":',
    '    return Other()',
    '',
  ].join('\n'),
  'shop/use.py': [
    'import typing as t',
    '',
    'from shop.runner import FastRunner, Other, Runner, make, make_other',
    '',
    '',
    'def ctor():',
    '    ré = Runner()',
    '    return ré.invoke(1)  # constructor (a non-ASCII name before the column): high',
    '',
    '',
    'def annotated(r: Runner, o: Other):',
    '    return r.invoke(1) + o.invoke(1)  # annotation: high; Other: no edit',
    '',
    '',
    'def optional(r: t.Optional["Runner"] = None):',
    '    return r.invoke(2) if r else 0  # forward reference in Optional: high',
    '',
    '',
    'def default(r=Runner()):',
    '    return r.invoke(3)  # class-typed default: high',
    '',
    '',
    'def returned():',
    '    return make().invoke(4) + make_other().invoke(4)  # return annotations: high; Other: no edit',
    '',
    '',
    'def variable():',
    '    v: Runner = t.cast(t.Any, make())',
    '    return v.invoke(5)  # variable annotation: high',
    '',
    '',
    'def no_value():',
    '    return 0',
    '',
    '',
    'def other_ctor():',
    '    o = Other()',
    '    return o.invoke(7)  # another class: no edit',
    '',
    '',
    'def inherited():',
    '    return FastRunner().invoke(8)  # inherited from Runner: high',
    '',
    '',
    'class Holder:',
    '    def __init__(self):',
    '        self.runner = Runner()',
    '',
    '    def run(self):',
    '        return self.runner.invoke(9)  # instance attribute: high',
    '',
    '',
    'def total():',
    '    return ctor() + annotated(Runner(), Other()) + optional(Runner()) + default() + returned() + variable() + no_value() + other_ctor() + inherited() + Holder().run()',
    '',
  ].join('\n'),
  'tests/conftest.py':
    'import pytest\n\nfrom shop.runner import Runner\n\n\n@pytest.fixture\ndef runner():\n    return Runner()\n\n\n@pytest.fixture(name="other")\ndef _other():\n    from shop.runner import Other\n\n    return Other()\n',
  'tests/test_use.py': [
    'from shop.use import total',
    '',
    '',
    'def test_runner(runner, other):',
    '    assert runner.invoke(1) == 2  # pytest fixture: high',
    '    assert other.invoke(1) == 0  # fixture named by name=: Other, no edit',
    '',
    '',
    'def test_total():',
    '    assert total() == 50',
    '',
  ].join('\n'),
  'shop/loose.py': [
    'def unknown(x):',
    '    return x.invoke(6)  # unannotated parameter: medium',
    '',
    '',
    'def deco(f):',
    '    return f',
    '',
    '',
    '@deco',
    'def cli():',
    '    return 0',
    '',
    '',
    'def decorated():',
    '    return cli.invoke(1)  # a decorated function may be anything (click commands): medium',
    '',
  ].join('\n'),
  // receivers reached through modules: `import pkg` + `pkg.mod.Class()`, `import pkg.mod as m` + `m.factory()`
  'shop/by_module.py':
    'import shop\nimport shop.runner as sr\n\n\ndef through_modules():\n    return shop.runner.Runner().invoke(10) + sr.make().invoke(11)\n',
  'pytest.ini': '[pytest]\ntestpaths = tests\npythonpath = .\n',
  // click's parser.py: deprecated names served through a module __getattr__ and globals()
  'shop/legacy.py': [
    'class _Parser:',
    '    def parse(self):',
    '        return 1',
    '',
    '',
    'def __getattr__(name):',
    '    if name == "Parser":',
    '        return globals()[f"_{name}"]',
    '    raise AttributeError(name)',
    '',
  ].join('\n'),
  // a package serving a deprecated name of a submodule lazily (click's __init__.py)
  'lazy/__init__.py':
    'def __getattr__(name):\n    if name == "Tool":\n        from .tools import _Tool\n\n        return _Tool\n    raise AttributeError(name)\n',
  'lazy/tools.py': 'class _Tool:\n    pass\n\n\ndef helper():\n    return 1\n',
  'shop/compat_use.py': 'import shop.legacy\n\n\ndef parse():\n    return shop.legacy.Parser().parse()\n',
};

const rowsOf = (preview: Preview) =>
  preview.edits.flatMap((f) =>
    f.hunks.filter((h) => h.certainty !== 'low').map((h) => `${f.path}:${h.line} ${h.certainty}`),
  );

describe('Python method renames type their receivers (refactor_rename over MCP)', function () {
  this.timeout(300_000);
  let server: ServeSession;
  let bin: string;
  const pytest = () =>
    execFileSync(join(bin, 'python'), ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
      cwd: server.repo,
      encoding: 'utf8',
    });
  before(async () => {
    bin = ensureTestVenv(['pytest']);
    server = await serveRepository(SHOP);
  });
  after(async () => {
    await server?.close();
  });

  it('each resolved receiver is high or no edit, an unknown one medium; applying the preview keeps pytest green', async () => {
    expect(pytest()).to.match(/2 passed/);
    const result = await server.call('refactor_rename', {
      symbol: 'Runner.invoke',
      new_name: 'call',
      justification: 'receiver kinds',
      include_comments: false,
    });
    expect(result.error, JSON.stringify(result.error)).to.equal(undefined);
    const preview = result['preview'] as Preview;
    expect(rowsOf(preview).sort()).to.deep.equal(
      [
        'shop/runner.py:2 high', // the definition
        'shop/runner.py:13 high',
        'shop/use.py:8 high',
        'shop/use.py:12 high',
        'shop/use.py:16 high',
        'shop/use.py:20 high',
        'shop/use.py:24 high',
        'shop/use.py:29 high',
        'shop/loose.py:2 medium',
        'shop/loose.py:15 medium',
        'shop/by_module.py:6 high',
        'shop/by_module.py:6 high',
        'shop/use.py:42 high',
        'shop/use.py:50 high',
        'tests/test_use.py:5 high',
      ].sort(),
    );
    // `o.invoke` (Other) on lines 12, 24 and 38 and the `other` fixture's use are not edits at all
    const use = preview.edits.find((f) => f.path === 'shop/use.py')!.hunks;
    expect(use.filter((h) => h.line === 12).map((h) => h.column)).to.deep.equal([13]);
    expect(use.some((h) => h.line === 38)).to.equal(false);
    expect(preview.edits.find((f) => f.path === 'tests/test_use.py')!.hunks.map((h) => h.line)).to.deep.equal([5]);
    expect(preview.counts).to.deep.include({ medium: 2 });
    await server.call('refactor_cancel', { refactor_id: result['refactor_id'] });
    // what is vouched for (the high edits) applied alone keeps the suite green: shop/loose.py holds the one medium edit
    const vouched = await server.call('refactor_rename', {
      symbol: 'Runner.invoke',
      new_name: 'call',
      justification: 'high only',
      include_comments: false,
      contexts: ['shop/runner.py', 'shop/use.py', 'shop/by_module.py', 'tests'],
    });
    expect((vouched['preview'] as Preview).counts).to.deep.equal({ high: 13, medium: 0, low: 0 });
    const committed = await server.call('refactor_commit', { refactor_id: vouched['refactor_id'] });
    expect(committed.error, JSON.stringify(committed.error)).to.equal(undefined);
    expect(readFileSync(join(server.repo, 'shop/use.py'), 'utf8')).to.contain('return r.call(1) + o.invoke(1)');
    expect(pytest()).to.match(/2 passed/);
    const modules = execFileSync(
      join(bin, 'python'),
      ['-c', 'from shop.by_module import through_modules; print(through_modules())'],
      { cwd: server.repo, encoding: 'utf8' },
    );
    expect(modules.trim()).to.equal('23');
  });

  it('a name the module serves at run time (module __getattr__, globals()) is a warning in the preview', async () => {
    const result = await server.call('refactor_rename', {
      symbol: '_Parser',
      new_name: '_TokenParser',
      justification: 'dynamic names',
    });
    expect(result.error, JSON.stringify(result.error)).to.equal(undefined);
    const preview = result['preview'] as Preview;
    expect(preview.warnings).to.have.length(1);
    expect(preview.warnings[0]).to.match(
      /^shop\/legacy\.py serves names at run time \(module __getattr__ at line 6: def __getattr__\(name\):; globals\(\) at line 8: return globals\(\)\[f"_\{name\}"\]\)/,
    );
    expect(String(result['display_to_user'])).to.contain('Warning: shop/legacy.py serves names at run time');
    await server.call('refactor_cancel', { refactor_id: result['refactor_id'] });
    const plain = await server.call('refactor_rename', {
      symbol: 'Other',
      new_name: 'Another',
      justification: 'no dynamic names there',
    });
    expect((plain['preview'] as Preview).warnings).to.deep.equal([]);
    await server.call('refactor_cancel', { refactor_id: plain['refactor_id'] });
    // a package __init__.py above the module: only when what it serves at run time names the symbol
    const lazy = await server.call('refactor_rename', {
      symbol: '_Tool',
      new_name: '_Instrument',
      justification: 'lazy package',
    });
    expect((lazy['preview'] as Preview).warnings.map((w) => w.slice(0, 72))).to.deep.equal([
      'lazy/__init__.py serves names at run time (module __getattr__ at line 1:',
    ]);
    await server.call('refactor_cancel', { refactor_id: lazy['refactor_id'] });
    const helper = await server.call('refactor_rename', {
      symbol: 'helper',
      new_name: 'assist',
      justification: 'not served lazily',
    });
    expect((helper['preview'] as Preview).warnings).to.deep.equal([]);
    await server.call('refactor_cancel', { refactor_id: helper['refactor_id'] });
    const method = await server.call('refactor_rename', {
      symbol: '_Parser.parse',
      new_name: 'read',
      justification: 'a member is never served by a module',
    });
    expect((method['preview'] as Preview).warnings).to.deep.equal([]);
    await server.call('refactor_cancel', { refactor_id: method['refactor_id'] });
  });

  it('a move rewrites attribute paths through the moved module, names served by its __getattr__ included', async () => {
    const run = () =>
      execFileSync(join(bin, 'python'), ['-c', 'import shop.compat_use as c; print(c.parse())'], {
        cwd: server.repo,
        encoding: 'utf8',
      }).trim();
    expect(run()).to.equal('1');
    const result = await server.call('refactor_move', {
      from_path: 'shop/legacy.py',
      to_path: 'shop/compat/legacy.py',
      justification: 'attribute uses',
    });
    expect(result.error, JSON.stringify(result.error)).to.equal(undefined);
    const hunks = (result['preview'] as Preview).edits
      .find((f) => f.path === 'shop/compat_use.py')!
      .hunks.map((h) => `${h.line}:${h.column} ${h.old} -> ${h.new} ${h.certainty}`);
    expect(hunks).to.deep.equal([
      '1:7 shop.legacy -> shop.compat.legacy high',
      '5:11 shop.legacy -> shop.compat.legacy high',
    ]);
    expect((await server.call('refactor_commit', { refactor_id: result['refactor_id'] })).error).to.equal(undefined);
    expect(readFileSync(join(server.repo, 'shop/compat_use.py'), 'utf8')).to.contain(
      'return shop.compat.legacy.Parser().parse()',
    );
    expect(run()).to.equal('1');
  });
});

/**
 * flask's shapes: a generic protocol's `-> T` bound by the receiver's class (`FlaskProxy(ProxyMixin[Flask], Flask)`),
 * a `ContextVar[T]`'s `.get()`, and a name re-bound from itself (`ctx = ctx.copy()`).
 */
const PROXIES = {
  'web/__init__.py': '',
  'web/app.py': [
    'class App:',
    '    def ensure_sync(self, f):',
    '        return f',
    '',
    '',
    'class Menu:',
    '    def ensure_sync(self, f):',
    '        return None',
    '',
  ].join('\n'),
  'web/ctx.py': [
    'import typing as t',
    'from contextvars import ContextVar',
    '',
    'from web.app import App, Menu',
    '',
    'T = t.TypeVar("T")',
    '',
    '',
    'class ProxyMixin(t.Protocol[T]):',
    '    def _get_current_object(self) -> T: ...',
    '',
    '',
    'class AppProxy(ProxyMixin[App], App): ...',
    '',
    '',
    'class MenuProxy(ProxyMixin[Menu], Menu): ...',
    '',
    '',
    'class AppContext:',
    '    def __init__(self, app: App):',
    '        self.app = app',
    '',
    '    def copy(self) -> "AppContext":',
    '        return AppContext(self.app)',
    '',
    '',
    '_cv_app: ContextVar[AppContext] = ContextVar("app_ctx")',
    'current_app: AppProxy = t.cast(t.Any, None)',
    'current_menu: MenuProxy = t.cast(t.Any, None)',
    '',
    '',
    'def flash(f):',
    '    app = current_app._get_current_object()',
    '    return app.ensure_sync(f)  # T of ProxyMixin[App]: high',
    '',
    '',
    'def menu(f):',
    '    return current_menu._get_current_object().ensure_sync(f)  # T of ProxyMixin[Menu]: no edit',
    '',
    '',
    'def copied(f):',
    '    ctx = _cv_app.get(None)',
    '    if ctx is None:',
    '        return f',
    '    ctx = ctx.copy()',
    '    return ctx.app.ensure_sync(f)  # ContextVar[AppContext].get(), then re-bound from itself: high',
    '',
  ].join('\n'),
  // flask's sansio Blueprint: a base that calls a method only its subclass defines; Flask's weakref to itself
  'web/blueprints.py': [
    'import weakref',
    '',
    '',
    'class BaseBlueprint:',
    '    def register(self):',
    '        return self.send_static_file("x")  # only the subclass defines it: high',
    '',
    '',
    'class Blueprint(BaseBlueprint):',
    '    def send_static_file(self, name):',
    '        return name',
    '',
    '',
    'class Plain(BaseBlueprint):',
    '    pass',
    '',
    '',
    'class Site:',
    '    def send_static_file(self, name):',
    '        return None',
    '',
    '    def route(self):',
    '        self_ref = weakref.ref(self)',
    '        return lambda: self_ref().send_static_file("y")  # Site\'s own, through the weakref: no edit',
    '',
    '',
    'class BaseTwo:',
    '    def register(self):',
    '        return self.send_static_file("z")  # two subclasses define it: medium',
    '',
    '',
    'class BlueprintTwo(BaseTwo):',
    '    def send_static_file(self, name):',
    '        return name',
    '',
    '',
    'class SecondTwo(BaseTwo):',
    '    def send_static_file(self, name):',
    '        return name',
    '',
  ].join('\n'),
};

describe('Python receivers through generic bases, ContextVar, weakrefs, self re-binding and completing subclasses (refactor_rename over MCP)', function () {
  this.timeout(300_000);

  it("a generic base's type argument, a ContextVar's value, a weakref, `x = x.copy()` and a base only one subclass completes type the receiver", async () => {
    const server = await serveRepository(PROXIES);
    try {
      const result = await server.call('refactor_rename', {
        symbol: 'App.ensure_sync',
        new_name: 'to_sync',
        justification: 'generic receivers',
        include_comments: false,
      });
      expect(result.error, JSON.stringify(result.error)).to.equal(undefined);
      expect(rowsOf(result['preview'] as Preview).sort()).to.deep.equal(
        ['web/app.py:2 high', 'web/ctx.py:34 high', 'web/ctx.py:46 high'].sort(),
      );
      await server.call('refactor_cancel', { refactor_id: result['refactor_id'] });
      const completed = await server.call('refactor_rename', {
        symbol: 'Blueprint.send_static_file',
        new_name: 'send_file',
        justification: 'a base only its subclass completes',
        include_comments: false,
      });
      expect(completed.error, JSON.stringify(completed.error)).to.equal(undefined);
      expect(rowsOf(completed['preview'] as Preview).sort()).to.deep.equal(
        ['web/blueprints.py:6 high', 'web/blueprints.py:10 high'].sort(),
      );
      await server.call('refactor_cancel', { refactor_id: completed['refactor_id'] });
      const ambiguous = await server.call('refactor_rename', {
        symbol: 'BlueprintTwo.send_static_file',
        new_name: 'send_file',
        justification: 'two subclasses complete the base',
        include_comments: false,
      });
      expect(rowsOf(ambiguous['preview'] as Preview).sort()).to.deep.equal(
        ['web/blueprints.py:29 medium', 'web/blueprints.py:33 high'].sort(),
      );
      await server.call('refactor_cancel', { refactor_id: ambiguous['refactor_id'] });
    } finally {
      await server.close();
    }
  });
});
