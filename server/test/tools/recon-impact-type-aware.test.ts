import { expect } from 'chai';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { ServeClient, type Structured } from '../checkpoint/serve-client.js';
import { gitInit } from '../recon/fixture-repo.js';

/** `Router.route` and an unrelated `Menu.route`; the calls go through locals and a factory the index cannot type. */
const REPO = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'nodenext' },
    include: ['src'],
  }),
  'src/router.ts': 'export class Router {\n  route(path: string): Router {\n    return this;\n  }\n}\n',
  'src/menu.ts': "export class Menu {\n  route(): string {\n    return 'menu';\n  }\n}\n",
  'src/app.ts': [
    "import { Router } from './router.js';",
    "import { Menu } from './menu.js';",
    '',
    'export function make(): Router {',
    '  const router = new Router();',
    "  router.route('/a');",
    '  new Menu().route();',
    "  return router.route('/b');",
    '}',
    '',
    'export function build(factory: () => Router): void {',
    "  factory().route('/c');",
    '}',
    '',
  ].join('\n'),
};

type Reference = { path: string; line: number; column: number; certainty: string; context: string; by?: string };
type Impact = Structured & {
  references: Reference[];
  counts: Record<string, number>;
  type_aware?: {
    engine: string;
    status: string;
    references: number;
    confirmed: number;
    added: number;
    note?: string;
  }[];
};

function repo(): string {
  const root = makeTempDir('agentgov-impact-');
  writeTree(root, REPO);
  gitInit(root);
  return root;
}

const lines = (refs: Reference[], where: (ref: Reference) => boolean) =>
  refs.filter((ref) => ref.path === 'src/app.ts' && where(ref)).map((ref) => ref.line);

describe('recon_impact on TypeScript through the language service (agentgov serve over stdio)', function () {
  this.timeout(180_000);

  it('a member reference the index cannot type is high through the language service; a same-named member of another class is not', async () => {
    const serve = await ServeClient.start(repo(), {}, { config: 'log_level: WARNING\n' });
    try {
      const { data, text } = await serve.call('recon_impact', {
        target: 'Router.route',
        justification: 'changing its signature',
        include_comments: false,
      });
      const impact = data as Impact;
      expect(impact.error, text).to.equal(undefined);
      expect(impact.type_aware).to.have.length(1);
      expect(impact.type_aware![0]).to.deep.include({
        engine: 'typescript-language-service',
        status: 'complete',
        references: 3,
      });
      expect(lines(impact.references, (ref) => ref.by === 'language-service')).to.deep.equal([6, 8, 12]);
      expect(lines(impact.references, (ref) => ref.certainty === 'high')).to.deep.equal([6, 8, 12]);
      // Menu.route's call is a name match of the index, as before: never high, never the language service's
      expect(
        impact.references
          .filter((ref) => ref.line === 7 && ref.path === 'src/app.ts')
          .map((ref) => [ref.certainty, ref.by]),
      ).to.deep.equal([['medium', undefined]]);
      expect(impact.counts['high']).to.equal(impact.references.filter((ref) => ref.certainty === 'high').length);
    } finally {
      await serve.close();
    }
  });

  it('past server.impact.language_service_ms the answer is the index alone, and says so', async () => {
    const serve = await ServeClient.start(
      repo(),
      {},
      { config: 'log_level: WARNING\nserver:\n  impact:\n    language_service_ms: 1\n' },
    );
    try {
      const impact = (
        await serve.call('recon_impact', {
          target: 'Router.route',
          justification: 'changing its signature',
          include_comments: false,
        })
      ).data as Impact;
      expect(impact.type_aware!.map((r) => r.status)).to.deep.equal(['deadline']);
      expect(impact.type_aware![0]!.note).to.match(
        /did not finish a search within 1 ms \(server\.impact\.language_service_ms\); these references are the index's alone/,
      );
      expect(impact.references.filter((ref) => ref.by)).to.deep.equal([]);
      expect(lines(impact.references, (ref) => ref.certainty === 'high')).to.not.include.members([6, 8, 12]);
      expect(lines(impact.references, () => true)).to.include.members([6, 7, 8, 12]);
    } finally {
      await serve.close();
    }
  });
});

/** `Runner.invoke` and an unrelated `Other.invoke`; receivers typed by a constructor, an annotation, `self`, a default, a return annotation. */
const PY_REPO = {
  'pkg/__init__.py': '',
  'pkg/runner.py': [
    'class Runner:',
    '    def invoke(self, args):',
    '        return args',
    '',
    '    def again(self):',
    '        return self.invoke([])',
    '',
    '',
    'class Other:',
    '    def invoke(self):',
    '        return None',
    '',
    '',
    'def make() -> Runner:',
    '    return Runner()',
    '',
  ].join('\n'),
  'pkg/app.py': [
    'from pkg.runner import Other, Runner, make',
    '',
    '',
    'def by_constructor():',
    '    runner = Runner()',
    '    runner.invoke([1])',
    '',
    '',
    'def by_annotation(ctx: Runner):',
    '    ctx.invoke([2])',
    '',
    '',
    'def by_default(runner=Runner()):',
    '    runner.invoke([3])',
    '',
    '',
    'def by_return():',
    '    make().invoke([4])',
    '',
    '',
    'def elsewhere(thing):',
    '    Other().invoke()',
    '    thing.invoke()',
    '',
  ].join('\n'),
};

describe('recon_impact on Python members through the receiver typing (agentgov serve over stdio)', function () {
  this.timeout(180_000);

  it('a member access whose receiver the Python engine types to the class is high; another class and an untyped receiver are not', async () => {
    const root = makeTempDir('agentgov-impact-py-');
    writeTree(root, PY_REPO);
    gitInit(root);
    const serve = await ServeClient.start(root, {}, { config: 'log_level: WARNING\n' });
    try {
      const { data, text } = await serve.call('recon_impact', {
        target: 'Runner.invoke',
        justification: 'changing its signature',
        include_comments: false,
      });
      const impact = data as Impact;
      expect(impact.error, text).to.equal(undefined);
      expect(impact.type_aware?.map((r) => [r.engine, r.status])).to.deep.equal([
        ['python-index-resolution', 'complete'],
      ]);
      const at = (path: string, certainty: string) =>
        impact.references.filter((r) => r.path === path && r.certainty === certainty).map((r) => r.line);
      expect(at('pkg/app.py', 'high')).to.deep.equal([6, 10, 14, 18]);
      expect(at('pkg/runner.py', 'high')).to.include(6);
      // typed by this engine, not by the index's resolution: marked so
      expect(
        impact.references.filter((r) => r.path === 'pkg/app.py' && r.certainty === 'high').map((r) => r.by),
      ).to.deep.equal(['receiver-type', 'receiver-type', 'receiver-type', 'receiver-type']);
      // Other().invoke() and thing.invoke() stay the index's name matches
      expect(at('pkg/app.py', 'medium')).to.deep.equal([22, 23]);
      expect(impact.counts['high']).to.equal(impact.references.filter((r) => r.certainty === 'high').length);
    } finally {
      await serve.close();
    }
  });
});
