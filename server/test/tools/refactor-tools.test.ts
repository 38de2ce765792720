import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { isolatedEnv, makeTempDir, writeTree } from '@agentgov/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { gitInit } from '../recon/fixture-repo.js';

/** The real CLI binary (built by the root `tsc -b`). */
const MAIN = fileURLToPath(new URL('../../../../cli/dist/src/main.js', import.meta.url));

type Hunk = {
  line: number;
  column: number;
  old: string;
  new: string;
  certainty: string;
  range: { start_line: number; start_col: number; end_line: number; end_col: number };
};
type Structured = Record<string, unknown> & {
  error?: { code: string; message: string; details: Record<string, unknown> };
  refactor_id?: string;
  preview?: {
    edits: { path: string; hunks: Hunk[] }[];
    moves: { from: string; to: string; git: boolean }[];
    collisions: unknown[];
    verification_required: boolean;
    counts: Record<string, number>;
  };
  display_to_user?: string;
};

const REPO = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'nodenext' },
    include: ['src'],
  }),
  'src/math/clamp.ts':
    '/** clamp keeps a value in range */\nexport function clamp(v: number, lo: number, hi: number): number {\n  return Math.min(hi, Math.max(lo, v));\n}\n',
  'src/meter.ts':
    "import { clamp } from './math/clamp.js';\nexport class Meter {\n  limit = 3;\n  read(): number {\n    return clamp(1, 0, this.limit);\n  }\n}\nexport class Gauge {\n  read(): number {\n    return 2;\n  }\n}\n",
  'src/app.ts':
    "import { clamp } from './math/clamp.js';\nimport { Meter } from './meter.js';\n// the app clamps the meter reading\nexport const value = clamp(new Meter().read(), 0, 1);\nexport const label = 'clamp';\n",
  'src/other.ts': "import { clamp } from './math/clamp.js';\nexport const other = clamp(5, 0, 9);\n",
};

/** `agentgov serve` on a temp git repository, with the real MCP client over stdio. */
async function serve(
  files: Record<string, string>,
  config = '',
): Promise<{
  repo: string;
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<Structured>;
  close(): Promise<void>;
}> {
  const home = makeTempDir('agentgov-home-');
  const repo = makeTempDir('agentgov-refactor-repo-');
  writeTree(repo, files);
  gitInit(repo);
  const configDir = makeTempDir('agentgov-config-');
  writeFileSync(join(configDir, 'agentgov.yaml'), config || 'log_level: WARNING\n');
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'serve', '--repo', repo, '--config', join(configDir, 'agentgov.yaml')],
    env: isolatedEnv(home) as Record<string, string>,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const client = new Client({ name: 'refactor-test', version: '0.0.0' });
  await client.connect(transport).catch((error: Error) => {
    throw new Error(`serve did not start: ${error.message}\n${stderr}`);
  });
  const call = async (name: string, args: Record<string, unknown>): Promise<Structured> =>
    (await client.callTool({ name, arguments: args })).structuredContent as Structured;
  return { repo, client, call, close: () => client.close() };
}

/** Waits for the first index build: calls recon until it stops answering E_INDEX_NOT_READY. */
async function recon(
  call: (name: string, args: Record<string, unknown>) => Promise<Structured>,
  args: Record<string, unknown> = {},
): Promise<Structured> {
  for (let attempt = 0; ; attempt += 1) {
    const result = await call('recon', { task: 'rename clamp in the meter', ...args });
    if (result.error?.code !== 'E_INDEX_NOT_READY' || attempt > 300) return result;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const snapshot = (repo: string, paths: string[]) =>
  Object.fromEntries(paths.map((p) => [p, readFileSync(join(repo, p), 'utf8')]));
const git = (repo: string, ...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });

describe('refactor tools over MCP stdio (agentgov serve)', function () {
  this.timeout(180_000);
  let server: Awaited<ReturnType<typeof serve>>;
  before(async () => {
    server = await serve(REPO);
  });
  after(async () => {
    await server?.close();
  });

  it('lists the four tools: commit is destructive, the previews are not read-only either', async () => {
    const { tools } = await server.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['refactor_rename', 'refactor_move', 'refactor_commit', 'refactor_cancel'])
      expect(byName.has(name), name).to.equal(true);
    expect(byName.get('refactor_commit')?.annotations?.destructiveHint).to.equal(true);
    expect(byName.get('refactor_rename')?.inputSchema.properties).to.have.keys([
      'symbol',
      'new_name',
      'justification',
      'include_comments',
      'contexts',
    ]);
  });

  it('refuses rename and move before any recon in the session: E_RECON_REQUIRED', async () => {
    expect(
      (await server.call('refactor_rename', { symbol: 'clamp', new_name: 'limit', justification: 't' })).error?.code,
    ).to.equal('E_RECON_REQUIRED');
    expect(
      (await server.call('refactor_move', { from_path: 'src/app.ts', to_path: 'src/main.ts', justification: 't' }))
        .error?.code,
    ).to.equal('E_RECON_REQUIRED');
  });

  it('blocks every refactor tool in a research-only session: E_READ_ONLY_SESSION', async () => {
    expect((await recon(server.call, { read_only: true })).gate).to.be.a('string');
    expect(
      (await server.call('refactor_rename', { symbol: 'clamp', new_name: 'limit', justification: 't' })).error?.code,
    ).to.equal('E_READ_ONLY_SESSION');
    expect((await server.call('refactor_commit', { refactor_id: 'rf_x' })).error?.code).to.equal('E_READ_ONLY_SESSION');
    await recon(server.call, { read_only: false });
  });

  it('symbol lookup: ambiguous names list every candidate to retry with, unknown names suggest the nearest, positions are refused', async () => {
    const ambiguous = await server.call('refactor_rename', { symbol: 'read', new_name: 'sample', justification: 't' });
    expect(ambiguous.error?.code).to.equal('E_SYMBOL_AMBIGUOUS');
    const candidates = ambiguous.error?.details['candidates'] as { symbol: string; location: string }[];
    expect(candidates.map((c) => [c.symbol, c.location])).to.deep.equal(
      [
        ['Gauge.read', 'src/meter.ts:9'],
        ['Meter.read', 'src/meter.ts:4'],
      ].sort((a, b) => a[1]!.localeCompare(b[1]!, undefined, { numeric: true })),
    );
    const retried = await server.call('refactor_rename', {
      symbol: 'Meter.read',
      new_name: 'sample',
      justification: 't',
    });
    expect(retried.error).to.equal(undefined);
    expect(retried.preview?.edits.map((f) => [f.path, f.hunks.map((h) => h.line)])).to.deep.equal([
      ['src/app.ts', [4]],
      ['src/meter.ts', [4]],
    ]);
    await server.call('refactor_cancel', { refactor_id: retried.refactor_id });

    const unknown = await server.call('refactor_rename', { symbol: 'clmap', new_name: 'x', justification: 't' });
    expect(unknown.error?.code).to.equal('E_NOT_FOUND');
    expect(unknown.error?.details['nearest']).to.include('clamp');
    const position = await server.call('refactor_rename', {
      symbol: 'src/app.ts:4:14',
      new_name: 'x',
      justification: 't',
    });
    expect(position.error?.code).to.equal('E_INVALID_ARGUMENT');
    expect(String(position.error?.details['hint'])).to.match(/symbol name/);
  });

  it('new_name must be an identifier and no keyword; a taken name is a collision the commit refuses', async () => {
    for (const bad of ['class', '2fast', 'a-b', 'clamp']) {
      expect(
        (await server.call('refactor_rename', { symbol: 'clamp', new_name: bad, justification: 't' })).error?.code,
        bad,
      ).to.equal('E_INVALID_NAME');
    }
    const taken = await server.call('refactor_rename', { symbol: 'Meter.read', new_name: 'limit', justification: 't' });
    expect(taken.preview?.collisions).to.deep.equal([
      { path: 'src/meter.ts', line: 4, existing: 'member limit of Meter' },
    ]);
    expect(taken.display_to_user).to.match(/already taken/);
    const before = snapshot(server.repo, ['src/meter.ts', 'src/app.ts']);
    expect((await server.call('refactor_commit', { refactor_id: taken.refactor_id })).error?.code).to.equal(
      'E_RENAME_COLLISION',
    );
    expect(snapshot(server.repo, ['src/meter.ts', 'src/app.ts'])).to.deep.equal(before);
    await server.call('refactor_cancel', { refactor_id: taken.refactor_id });
  });

  it('previews with exact ranges and certainty; inspect shows the low hunks with context and applies nothing', async () => {
    const preview = await server.call('refactor_rename', { symbol: 'clamp', new_name: 'limitTo', justification: 't' });
    const app = preview.preview?.edits.find((f) => f.path === 'src/app.ts');
    expect(app?.hunks.map((h) => [h.line, h.column, h.old, h.new, h.certainty])).to.deep.equal([
      [1, 9, 'clamp', 'limitTo', 'high'],
      [4, 21, 'clamp', 'limitTo', 'high'],
      [5, 22, 'clamp', 'limitTo', 'low'],
    ]);
    expect(app?.hunks[0]?.range).to.deep.equal({ start_line: 1, start_col: 9, end_line: 1, end_col: 14 });
    expect(preview.preview?.verification_required).to.equal(true);
    const before = snapshot(server.repo, ['src/app.ts']);
    const inspected = await server.call('refactor_commit', {
      refactor_id: preview.refactor_id,
      inspect_path: 'src/app.ts',
      context_lines: 1,
    });
    expect(inspected['applied']).to.equal(false);
    const hunks = inspected['hunks'] as { line: number; context: string }[];
    expect(hunks.map((h) => h.line)).to.deep.equal([5]);
    expect(hunks[0]?.context).to.equal(
      " 4| export const value = clamp(new Meter().read(), 0, 1);\n>5| export const label = 'clamp';\n 6| ",
    );
    expect(snapshot(server.repo, ['src/app.ts'])).to.deep.equal(before);
    await server.call('refactor_cancel', { refactor_id: preview.refactor_id });
    expect((await server.call('refactor_commit', { refactor_id: preview.refactor_id })).error?.code).to.equal(
      'E_PREVIEW_NOT_FOUND',
    );
  });

  it('staleness: a file edited after the preview → E_PREVIEW_STALE naming it, nothing written; two previews on one file: the first commit makes the second stale', async () => {
    const first = await server.call('refactor_rename', {
      symbol: 'clamp',
      new_name: 'bound',
      justification: 't',
      include_comments: false,
    });
    const second = await server.call('refactor_rename', { symbol: 'other', new_name: 'another', justification: 't' });
    const paths = ['src/math/clamp.ts', 'src/meter.ts', 'src/app.ts', 'src/other.ts'];
    writeFileSync(
      join(server.repo, 'src/meter.ts'),
      readFileSync(join(server.repo, 'src/meter.ts'), 'utf8') + '// edited\n',
    );
    const before = snapshot(server.repo, paths);
    const stale = await server.call('refactor_commit', { refactor_id: first.refactor_id });
    expect(stale.error?.code).to.equal('E_PREVIEW_STALE');
    expect(stale.error?.details['files']).to.deep.equal(['src/meter.ts']);
    expect(snapshot(server.repo, paths)).to.deep.equal(before);
    await server.call('refactor_cancel', { refactor_id: first.refactor_id });

    const fresh = await server.call('refactor_rename', {
      symbol: 'clamp',
      new_name: 'bound',
      justification: 't',
      include_comments: false,
    });
    expect((await server.call('refactor_commit', { refactor_id: fresh.refactor_id })).error).to.equal(undefined);
    const overlapping = await server.call('refactor_commit', { refactor_id: second.refactor_id });
    expect(overlapping.error?.code).to.equal('E_PREVIEW_STALE');
    expect(overlapping.error?.details['files']).to.deep.equal(['src/other.ts']);
  });

  it('a rename then recon finds the new name (the index is updated before the commit answers)', async () => {
    const preview = await server.call('refactor_rename', { symbol: 'Gauge', new_name: 'Dial', justification: 't' });
    const committed = await server.call('refactor_commit', { refactor_id: preview.refactor_id });
    expect(committed['files_changed']).to.deep.equal(['src/meter.ts']);
    expect(readFileSync(join(server.repo, 'src/meter.ts'), 'utf8')).to.contain('export class Dial {');
    const found = await server.call('recon', { task: 'the Dial class read method', seeds: ['Dial'] });
    expect((found['results'] as { name: string }[]).map((r) => r.name)).to.include('Dial');
  });

  it('atomicity: one target cannot be written mid-apply → E_APPLY_FAILED and no file changed', async () => {
    const preview = await server.call('refactor_rename', { symbol: 'Meter', new_name: 'Counter', justification: 't' });
    const paths = preview.preview!.edits.map((f) => f.path);
    expect(paths).to.deep.equal(['src/app.ts', 'src/meter.ts']);
    // the temp file of the second target is a directory: its write fails after the first target's temp is written
    mkdirSync(join(server.repo, `src/meter.ts.agentgov-${preview.refactor_id}.tmp`));
    const before = snapshot(server.repo, paths);
    const failed = await server.call('refactor_commit', { refactor_id: preview.refactor_id });
    expect(failed.error?.code).to.equal('E_APPLY_FAILED');
    expect(snapshot(server.repo, paths)).to.deep.equal(before);
    expect(
      git(server.repo, 'status', '--porcelain', '--untracked-files=all')
        .split('\n')
        .filter((l) => l.includes('agentgov-rf_') && l.endsWith('.tmp')),
    ).to.deep.equal([]);
  });

  it('moves tracked files with git mv and rewrites every importer; a destination that exists is refused', async () => {
    expect(
      (await server.call('refactor_move', { from_path: 'src/app.ts', to_path: 'src/other.ts', justification: 't' }))
        .error?.code,
    ).to.equal('E_DESTINATION_EXISTS');
    expect(
      (await server.call('refactor_move', { from_path: 'src/nope.ts', to_path: 'src/x.ts', justification: 't' })).error
        ?.code,
    ).to.equal('E_NOT_FOUND');
    expect(
      (await server.call('refactor_move', { from_path: 'src/app.ts', to_path: '../escape.ts', justification: 't' }))
        .error?.code,
    ).to.equal('E_PATH_OUTSIDE_REPO');
    const preview = await server.call('refactor_move', {
      from_path: 'src/math',
      to_path: 'src/numeric',
      justification: 't',
    });
    expect(preview.preview?.moves).to.deep.equal([{ from: 'src/math', to: 'src/numeric', git: true }]);
    expect(preview.preview?.edits.map((f) => f.path)).to.deep.equal(['src/app.ts', 'src/meter.ts', 'src/other.ts']);
    expect((await server.call('refactor_commit', { refactor_id: preview.refactor_id })).error).to.equal(undefined);
    // staged as a rename (R), the earlier uncommitted rename of clamp still in the work tree (M)
    expect(git(server.repo, 'status', '--porcelain')).to.match(
      /^R[ M] src\/math\/clamp\.ts -> src\/numeric\/clamp\.ts$/m,
    );
    expect(readFileSync(join(server.repo, 'src/other.ts'), 'utf8')).to.contain("from './numeric/clamp.js'");
    const impact = await server.call('recon_impact', { target: 'src/numeric/clamp.ts', justification: 't' });
    expect((impact['importers'] as { path: string }[]).map((i) => i.path).sort()).to.deep.equal([
      'src/app.ts',
      'src/meter.ts',
      'src/other.ts',
    ]);
  });
});

describe('refactor previews expire after the configured idle time', function () {
  this.timeout(120_000);
  it('a preview idle longer than server.refactor.preview_idle_minutes answers E_PREVIEW_NOT_FOUND', async () => {
    const server = await serve(REPO, 'log_level: WARNING\nserver:\n  refactor:\n    preview_idle_minutes: 0.02\n');
    try {
      await recon(server.call, { read_only: false });
      const preview = await server.call('refactor_rename', {
        symbol: 'clamp',
        new_name: 'limitTo',
        justification: 't',
      });
      expect(preview.refactor_id).to.be.a('string');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const expired = await server.call('refactor_commit', { refactor_id: preview.refactor_id });
      expect(expired.error?.code).to.equal('E_PREVIEW_NOT_FOUND');
      expect(readFileSync(join(server.repo, 'src/app.ts'), 'utf8')).to.equal(REPO['src/app.ts']);
    } finally {
      await server.close();
    }
  });
});

const PY_REPO = {
  'pkg/__init__.py': 'from . import util  # noqa: F401\n',
  'pkg/core.py':
    'from .util import scale\n\n\ndef run(x):\n    """run scales x"""\n    return scale(x) + 1\n\n\nclass Meter:\n    def read(self):\n        return run(2)\n',
  'pkg/util.py': 'def scale(x):\n    return x * 2\n',
  'pkg/app.py':
    'import pkg.core\nfrom pkg.core import run as go\nfrom pkg import util\nfrom . import core as c\n\n\ndef main(m):\n    # run the meter\n    return pkg.core.run(1) + go(2) + util.scale(3) + c.Meter().read() + m.read()\n',
  'main.py': 'from pkg.app import main\nfrom pkg.core import Meter\nprint(main(Meter()))\n',
  // flask's tests: `click.get_current_context().obj.load_app()`, a value of ours reached through an external module's call
  'pkg/clone.py': 'import copy\n\n\ndef twice(m):\n    return copy.copy(m).read() * 2\n',
  // flask's tests: `import flask` … `flask.templating.Environment`, a submodule reached through the imported package
  'stats.py': 'import pkg\nimport pkg as p\n\n\ndef total():\n    return pkg.util.scale(1) + p.util.scale(2)\n',
};

describe('refactor tools on Python over MCP stdio', function () {
  this.timeout(180_000);
  let server: Awaited<ReturnType<typeof serve>>;
  const runMain = () => execFileSync('python3', ['main.py'], { cwd: server.repo, encoding: 'utf8' }).trim();
  before(async () => {
    server = await serve(PY_REPO);
    await recon(server.call, { read_only: false });
  });
  after(async () => {
    await server?.close();
  });

  it('renames a function: resolved imports and calls high, the alias kept, the docstring and comment low', async () => {
    expect(runMain()).to.equal('24');
    const preview = await server.call('refactor_rename', {
      symbol: 'pkg.core.run',
      new_name: 'execute',
      justification: 't',
    });
    expect(preview.error).to.equal(undefined);
    const rows = preview.preview!.edits.flatMap((f) =>
      f.hunks.map((h) => `${f.path}:${h.line}:${h.column} ${h.certainty}`),
    );
    expect(rows).to.deep.equal([
      'pkg/app.py:2:21 high',
      'pkg/app.py:8:6 low',
      'pkg/app.py:9:20 high',
      'pkg/core.py:4:4 high',
      'pkg/core.py:5:7 low',
      'pkg/core.py:11:15 high',
    ]);
    expect(
      (await server.call('refactor_commit', { refactor_id: preview.refactor_id, accept: { certainty: 'low' } })).error,
    ).to.equal(undefined);
    expect(readFileSync(join(server.repo, 'pkg/app.py'), 'utf8')).to.contain('from pkg.core import execute as go\n');
    expect(runMain()).to.equal('24');
  });

  it('renames a method: self and typed uses high, an untyped member access medium', async () => {
    const preview = await server.call('refactor_rename', {
      symbol: 'Meter.read',
      new_name: 'sample',
      justification: 't',
    });
    const rows = preview.preview!.edits.flatMap((f) => f.hunks.map((h) => `${f.path}:${h.line} ${h.certainty}`));
    expect(rows).to.include.members(['pkg/core.py:10 high', 'pkg/app.py:9 medium', 'pkg/clone.py:5 medium']);
    expect(
      (await server.call('refactor_commit', { refactor_id: preview.refactor_id, accept: { certainty: 'low' } })).error,
    ).to.equal(undefined);
    expect(runMain()).to.equal('24');
  });

  it('moves a module: absolute, aliased, relative and `from pkg import module` importers, `import a.b` uses, its own relative imports', async () => {
    const preview = await server.call('refactor_move', {
      from_path: 'pkg/core.py',
      to_path: 'pkg/engine/core2.py',
      justification: 't',
    });
    expect(preview.error?.code, JSON.stringify(preview.error)).to.equal(undefined);
    expect((await server.call('refactor_commit', { refactor_id: preview.refactor_id })).error).to.equal(undefined);
    expect(readFileSync(join(server.repo, 'pkg/engine/core2.py'), 'utf8')).to.contain('from ..util import scale');
    expect(readFileSync(join(server.repo, 'main.py'), 'utf8')).to.contain('from pkg.engine.core2 import Meter');
    expect(runMain()).to.equal('24');
  });

  it('moves a submodule used through its package (`import pkg` … `pkg.util.scale`, aliased too): the attribute path is respelled', async () => {
    const total = () =>
      execFileSync('python3', ['-c', 'import stats; print(stats.total())'], {
        cwd: server.repo,
        encoding: 'utf8',
      }).trim();
    expect(total()).to.equal('6');
    const preview = await server.call('refactor_move', {
      from_path: 'pkg/util.py',
      to_path: 'pkg/tools/util.py',
      justification: 't',
    });
    expect(preview.error?.code, JSON.stringify(preview.error)).to.equal(undefined);
    const stats = preview
      .preview!.edits.find((f) => f.path === 'stats.py')!
      .hunks.map((h) => `${h.line}:${h.column} ${h.old} -> ${h.new} ${h.certainty}`);
    expect(stats).to.deep.equal(['6:11 pkg.util -> pkg.tools.util high', '6:31 p.util -> p.tools.util high']);
    expect((await server.call('refactor_commit', { refactor_id: preview.refactor_id })).error).to.equal(undefined);
    expect(readFileSync(join(server.repo, 'stats.py'), 'utf8')).to.contain(
      'return pkg.tools.util.scale(1) + p.tools.util.scale(2)\n',
    );
    expect(total()).to.equal('6');
    expect(runMain()).to.equal('24');
  });
});
