import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { createPluginHost, loadConfig, silentLogger, type PluginHost } from '@agentgov/core';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openRepositoryIndex, type RepositoryIndex } from '../../src/index/repository-index.js';
import type { CyclesResult } from '../../src/tools/graph-cycles.js';
import { connectClient } from '../mcp/session-client.js';
import { gitInit, RECON_PLUGINS } from '../recon/fixture-repo.js';
import { cargoCheck, RUST_REPO } from './rust-fixture.js';

const SERVER_DIR = fileURLToPath(new URL('../../../', import.meta.url));

type Answer = Record<string, unknown> & { error?: { code: string; message: string } };

/** A real plugin host (the recon retrievers and the Rust pack with its refactor engine), index and MCP session. */
async function serveRust(): Promise<{
  root: string;
  index: RepositoryIndex;
  call(name: string, args: Record<string, unknown>): Promise<Answer>;
  close(): Promise<void>;
}> {
  const root = makeTempDir('agentgov-rust-');
  writeTree(root, RUST_REPO);
  gitInit(root);
  const host: PluginHost = await createPluginHost({
    loaded: loadConfig({ cwd: makeTempDir('agentgov-cwd-') }),
    bundled: [...RECON_PLUGINS, '@agentgov/plugin-language-rust'],
    resolveFrom: [SERVER_DIR],
    host: 'server',
    logger: silentLogger,
  });
  const index = await openRepositoryIndex({
    root,
    languages: host.registries.languages.values(),
    logger: silentLogger,
  });
  await index.ready;
  const connected = await connectClient({ repoRoot: root, index, host });
  return {
    root,
    index,
    call: async (name, args) =>
      ((await connected.client.callTool({ name, arguments: args })) as CallToolResult).structuredContent as Answer,
    close: async () => {
      await connected.close();
      await index.close();
    },
  };
}

describe('the Rust language pack through the real index and tools', function () {
  this.timeout(300_000);
  let index: RepositoryIndex;
  let root: string;
  let call: (name: string, args: Record<string, unknown>) => Promise<Answer>;
  let close: () => Promise<void>;

  before(async () => {
    const served = await serveRust();
    ({ index, root, call, close } = served);
  });
  after(async () => {
    await close?.();
  });

  it('the fixture compiles before any refactor (cargo check)', () => {
    cargoCheck(root);
  });

  it('indexes definitions with kinds, dotted qualified names, signatures and doc comments', () => {
    const defs = index.definitions({ path: 'core/src/shapes/circle.rs' });
    const kinds = defs.map((d) => [d.kind, d.qualified_name]);
    expect(kinds).to.deep.include.members([
      ['struct', 'Circle'],
      ['field', 'Circle.radius'],
      ['method', 'Circle.new'],
      ['method', 'Circle.scaled'],
      ['method', 'Circle.area'],
      ['module', 'tests'],
      ['function', 'tests.unit_circle_area'],
    ]);
    const made = defs.find((d) => d.qualified_name === 'Circle.new')!;
    expect(made.signature).to.equal('pub fn new(radius: f64) -> Result<Circle, GeoError>');
    expect(made.docstring).to.equal('Builds a circle, refusing a negative radius.');
    expect(made.exported).to.equal(true);
    const lib = index.definitions({ path: 'core/src/lib.rs' }).map((d) => [d.kind, d.qualified_name]);
    expect(lib).to.deep.include.members([
      ['module', 'shapes'],
      ['module', 'util'],
      ['enum', 'GeoError'],
      ['constant', 'GeoError.Negative'],
    ]);
    expect(
      index.definitions({ path: 'core/src/shapes/mod.rs' }).map((d) => [d.kind, d.qualified_name]),
    ).to.deep.include.members([
      ['trait', 'Area'],
      ['method', 'Area.area'],
    ]);
  });

  it('resolves use items, crate::/super:: paths, mod.rs modules and workspace crate names to files', () => {
    const targets = (path: string) =>
      [...new Set(index.imports(path).flatMap((edge) => (edge.to_path ? [edge.to_path] : [])))].sort();
    expect(targets('core/src/shapes/circle.rs')).to.deep.equal([
      'core/src/lib.rs',
      'core/src/shapes/mod.rs',
      'core/src/util.rs',
    ]);
    expect(targets('core/src/lib.rs')).to.deep.equal(['core/src/shapes/mod.rs']);
    expect(targets('core/src/shapes/mod.rs')).to.deep.equal(['core/src/shapes/circle.rs']);
    // another package of the workspace by its crate name (`geo-core` → geo_core), and a sibling `mod`
    expect(targets('app/src/main.rs')).to.deep.equal([
      'app/src/report.rs',
      'core/src/lib.rs',
      'core/src/shapes/mod.rs',
      'core/src/util.rs',
    ]);
    expect(targets('core/tests/circle_area.rs')).to.deep.equal(['core/src/shapes/circle.rs', 'core/src/shapes/mod.rs']);
    // std paths are external: no edge to any file
    expect(index.imports('core/src/util.rs')).to.deep.equal([]);
  });

  it('resolves references through use, paths, Type::member and self. (high) and keeps the rest same-name', () => {
    const square = index.definitions({ qualifiedName: 'square' })[0]!;
    const uses = index
      .references({ toDefUid: square.def_uid })
      .map((r) => [r.path, r.start_line, r.context])
      .sort();
    expect(uses).to.deep.equal([
      ['app/src/main.rs', 9, 'call'],
      ['core/src/shapes/circle.rs', 2, 'import'],
      ['core/src/shapes/circle.rs', 28, 'call'],
    ]);
    const make = index.definitions({ qualifiedName: 'Circle.new' })[0]!;
    expect(
      index
        .references({ toDefUid: make.def_uid })
        .map((r) => [r.path, r.start_line])
        .sort(),
    ).to.deep.equal([
      ['app/src/main.rs', 7],
      ['core/src/shapes/circle.rs', 38],
      ['core/tests/circle_area.rs', 6],
      ['core/tests/circle_area.rs', 6],
    ]);
    const radius = index.definitions({ qualifiedName: 'Circle.radius' })[0]!;
    expect(
      index
        .references({ toDefUid: radius.def_uid })
        .map((r) => [r.start_line, r.context, r.qualifier])
        .sort(),
    ).to.deep.equal([
      [16, 'member', 'Circle'],
      [21, 'member', 'Circle'],
      [21, 'member', 'self'],
      [28, 'member', 'self'],
    ]);
    // `circle.area()` on a local of a type the index does not infer: same name, unresolved (medium)
    const call = index.references({ name: 'area', path: 'app/src/main.rs' })[0]!;
    expect([call.context, call.qualifier, call.to_def_uid]).to.deep.equal(['call', 'circle', null]);
  });

  it('recon finds a function by a task description', async () => {
    const answer = await call('recon', { task: 'compute compound interest on a principal over several periods' });
    expect(answer.error).to.equal(undefined);
    const results = answer['results'] as { name: string; path: string }[];
    expect(results[0]).to.include({ name: 'compound_interest', path: 'core/src/util.rs' });
  });

  it('recon_impact lists the resolved references with certainty and the test files reaching a module', async () => {
    const impact = await call('recon_impact', { target: 'square', justification: 'renaming it' });
    const refs = impact['references'] as { path: string; line: number; certainty: string }[];
    expect(refs.filter((r) => r.certainty === 'high').map((r) => `${r.path}:${r.line}`)).to.include.members([
      'core/src/shapes/circle.rs:28',
      'app/src/main.rs:9',
    ]);
    const moved = await call('recon_impact', { target: 'core/src/shapes/circle.rs', justification: 'moving it' });
    expect((moved['importers'] as { path: string }[]).map((i) => i.path)).to.include.members([
      'core/src/shapes/mod.rs',
      'core/tests/circle_area.rs',
    ]);
  });

  it('recon_scout lists the Cargo binaries as entry points', async () => {
    const briefing = await call('recon_scout', {});
    const items = (briefing['entry_points'] as { items: { path: string; kind: string; name: string | null }[] }).items;
    expect(items.map((e) => [e.path, e.kind, e.name])).to.deep.include(['app/src/main.rs', 'bin', 'app']);
  });

  it('graph_cycles reports the module cycle a re-export and a use crate:: close', async () => {
    const cycles = (await call('graph_cycles', {})) as unknown as CyclesResult;
    expect(cycles.cycles.map((c) => c.members)).to.deep.equal([
      ['core/src/lib.rs', 'core/src/shapes/circle.rs', 'core/src/shapes/mod.rs'],
    ]);
  });
});

describe('Rust rename and move through the refactor tools, checked by cargo', function () {
  this.timeout(300_000);
  let served: Awaited<ReturnType<typeof serveRust>>;
  before(async () => {
    served = await serveRust();
    await served.call('recon', { task: 'rename the circle radius' });
  });
  after(async () => {
    await served?.close();
  });

  const read = (path: string) => readFileSync(join(served.root, path), 'utf8');

  it('renames a function across crates (use items, module paths, macro arguments) and cargo check passes', async () => {
    const preview = await served.call('refactor_rename', {
      symbol: 'square',
      new_name: 'squared',
      justification: 'clearer name',
    });
    expect(preview.error).to.equal(undefined);
    const edits = (preview['preview'] as { edits: { path: string; hunks: { line: number; certainty: string }[] }[] })
      .edits;
    expect(edits.map((f) => [f.path, f.hunks.map((h) => `${h.line}:${h.certainty}`)])).to.deep.equal([
      ['app/src/main.rs', ['9:high']],
      // the comment `// square of the radius` is a low-certainty mention
      ['core/src/shapes/circle.rs', ['2:high', '27:low', '28:high']],
      ['core/src/util.rs', ['2:high']],
    ]);
    const committed = await served.call('refactor_commit', {
      refactor_id: preview['refactor_id'],
      accept: { certainty: 'low' },
    });
    expect(committed.error).to.equal(undefined);
    expect(read('core/src/util.rs')).to.contain('pub fn squared(x: f64)');
    expect(read('core/src/shapes/circle.rs')).to.contain('// squared of the radius');
    expect(read('app/src/main.rs')).to.contain('util::squared(3.0)');
    cargoCheck(served.root);
  });

  it('renames a struct field, including shorthand initializers and self. accesses, and cargo check passes', async () => {
    const preview = await served.call('refactor_rename', {
      symbol: 'Circle.radius',
      new_name: 'r',
      justification: 'shorter',
      include_comments: false,
    });
    expect(preview.error).to.equal(undefined);
    const hunks = (preview['preview'] as { edits: { hunks: { line: number; new: string; certainty: string }[] }[] })
      .edits[0]!.hunks;
    expect(hunks.map((h) => `${h.line}:${h.new}:${h.certainty}`)).to.deep.equal([
      '7:r:high',
      '16:r: radius:high',
      '21:r:high',
      '21:r:high',
      '28:r:high',
    ]);
    const committed = await served.call('refactor_commit', { refactor_id: preview['refactor_id'] });
    expect(committed.error).to.equal(undefined);
    const circle = read('core/src/shapes/circle.rs');
    expect(circle).to.contain('pub r: f64');
    expect(circle).to.contain('Ok(Circle { r: radius })');
    expect(circle).to.contain('Circle { r: self.r * factor }');
    cargoCheck(served.root);
  });

  it('renames a method called as Type::new across crates and tests, and cargo check passes', async () => {
    const preview = await served.call('refactor_rename', {
      symbol: 'Circle.new',
      new_name: 'with_radius',
      justification: 'say what it takes',
    });
    expect(preview.error).to.equal(undefined);
    expect((await served.call('refactor_commit', { refactor_id: preview['refactor_id'] })).error).to.equal(undefined);
    expect(read('core/tests/circle_area.rs')).to.contain('Circle::with_radius(2.0)');
    expect(read('app/src/main.rs')).to.contain('geo_core::Circle::with_radius(2.0)');
    cargoCheck(served.root);
  });

  it('a new name already defined beside it is a collision', async () => {
    const taken = await served.call('refactor_rename', {
      symbol: 'compound_interest',
      new_name: 'squared',
      justification: 't',
    });
    expect(taken['preview'])
      .to.have.property('collisions')
      .that.deep.equals([{ path: 'core/src/util.rs', line: 2, existing: 'function squared' }]);
    await served.call('refactor_cancel', { refactor_id: taken['refactor_id'] });
  });

  it('renames a trait method: the impls and calls on untyped values are medium, accepted, and cargo check passes', async () => {
    const preview = await served.call('refactor_rename', {
      symbol: 'Area.area',
      new_name: 'surface',
      justification: 'the trait speaks of surfaces',
      include_comments: false,
    });
    expect(preview.error).to.equal(undefined);
    const edits = (preview['preview'] as { edits: { path: string; hunks: { line: number; certainty: string }[] }[] })
      .edits;
    expect(edits.map((f) => [f.path, f.hunks.map((h) => `${h.line}:${h.certainty}`)])).to.deep.equal([
      ['app/src/main.rs', ['8:medium']],
      ['core/src/shapes/circle.rs', ['26:medium', '38:medium']],
      ['core/src/shapes/mod.rs', ['7:high']],
      ['core/tests/circle_area.rs', ['6:medium', '6:medium']],
    ]);
    const committed = await served.call('refactor_commit', {
      refactor_id: preview['refactor_id'],
      accept: { certainty: 'medium' },
    });
    expect(committed.error).to.equal(undefined);
    cargoCheck(served.root);
  });

  it('moves a module file beside its siblings: the mod declaration and crate:: paths follow, cargo check passes', async () => {
    const preview = await served.call('refactor_move', {
      from_path: 'core/src/util.rs',
      to_path: 'core/src/numeric.rs',
      justification: 'a better module name',
    });
    expect(preview.error).to.equal(undefined);
    expect((await served.call('refactor_commit', { refactor_id: preview['refactor_id'] })).error).to.equal(undefined);
    expect(read('core/src/lib.rs')).to.contain('pub mod numeric;');
    expect(read('core/src/shapes/circle.rs')).to.contain('use crate::numeric::squared;');
    expect(read('app/src/main.rs')).to.contain('use geo_core::numeric;');
    cargoCheck(served.root);
  });
});
