import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolatedEnv, makeTempDir, writeTree } from '@agentgov/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'chai';
import { gitInit } from '../recon/fixture-repo.js';

/** The real CLI binary (built by the root `tsc -b`). */
const MAIN = fileURLToPath(new URL('../../../../cli/dist/src/main.js', import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

type Hunk = { id: string; line: number; column: number; old: string; new: string; certainty: string };
type Unedited = { path: string; line: number; certainty: string; reason: string };
type Structured = Record<string, unknown> & {
  error?: { code: string; message: string; details: Record<string, unknown> };
  refactor_id?: string;
  preview?: {
    edits: { path: string; hunks: Hunk[] }[];
    counts: Record<string, number>;
    pending_review: { path: string; hunks: string[] }[];
    unedited: Unedited[];
    warnings: string[];
  };
  display_to_user?: string;
};

/**
 * A monorepo as npm workspaces lay it out: a solution tsconfig with project references, `core`
 * (composite, not built), `app` importing `@fx/core` by package name through node_modules, core's
 * tests as their own tsconfig project, and a loose script no tsconfig includes.
 */
const MONOREPO = {
  '.gitignore': 'node_modules/\ndist/\n*.tsbuildinfo\n',
  'package.json': JSON.stringify({ name: 'fx', private: true, type: 'module', workspaces: ['packages/*'] }),
  'tsconfig.base.json': JSON.stringify({
    compilerOptions: {
      strict: true,
      module: 'nodenext',
      target: 'es2022',
      composite: true,
      declaration: true,
      skipLibCheck: true,
      types: [],
    },
  }),
  'tsconfig.json': JSON.stringify({ files: [], references: [{ path: 'packages/core' }, { path: 'packages/app' }] }),
  'packages/core/package.json': JSON.stringify({
    name: '@fx/core',
    type: 'module',
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
  }),
  'packages/core/tsconfig.json': JSON.stringify({
    extends: '../../tsconfig.base.json',
    compilerOptions: { rootDir: 'src', outDir: 'dist' },
    include: ['src'],
  }),
  'packages/core/src/index.ts': "export { makeHost, type Host } from './host.js';\n",
  'packages/core/src/host.ts':
    'export interface Host {\n  name: string;\n}\n/** makeHost builds a host */\nexport function makeHost(name: string): Host {\n  return { name };\n}\n',
  'packages/core/test/tsconfig.json': JSON.stringify({
    compilerOptions: {
      strict: true,
      module: 'nodenext',
      target: 'es2022',
      noEmit: true,
      skipLibCheck: true,
      types: [],
    },
    include: ['.'],
  }),
  'packages/core/test/host.test.ts': "import { makeHost } from '../src/host.js';\nexport const made = makeHost('t');\n",
  'packages/app/package.json': JSON.stringify({ name: '@fx/app', type: 'module', dependencies: { '@fx/core': '*' } }),
  'packages/app/tsconfig.json': JSON.stringify({
    extends: '../../tsconfig.base.json',
    compilerOptions: { rootDir: 'src', outDir: 'dist' },
    include: ['src'],
    references: [{ path: '../core' }],
  }),
  'packages/app/src/main.ts': "import { makeHost } from '@fx/core';\nexport const host = makeHost('app');\n",
  'scripts/loose.mjs': "import { makeHost } from '@fx/core';\nexport const made = makeHost('script');\n",
  // Python: a method used through an untyped parameter is a medium hunk
  'py/meter.py':
    'class Meter:\n    def read(self):\n        return 1\n\n\ndef use(m):\n    return m.read()\n\n\nprint(use(Meter()))\n',
};

async function serve(): Promise<{
  repo: string;
  call(name: string, args: Record<string, unknown>): Promise<Structured>;
  close(): Promise<void>;
}> {
  // a home and a repository under /var/tmp, not only /tmp
  const home = mkdtempSync('/var/tmp/agentgov-home-');
  const repo = makeTempDir('agentgov-monorepo-');
  writeTree(repo, MONOREPO);
  mkdirSync(join(repo, 'node_modules/@fx'), { recursive: true });
  symlinkSync('../../packages/core', join(repo, 'node_modules/@fx/core'));
  symlinkSync('../../packages/app', join(repo, 'node_modules/@fx/app'));
  gitInit(repo);
  const configDir = makeTempDir('agentgov-config-');
  writeFileSync(join(configDir, 'agentgov.yaml'), 'log_level: WARNING\n');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'serve', '--repo', repo, '--config', join(configDir, 'agentgov.yaml')],
    env: isolatedEnv(home) as Record<string, string>,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'workspace-refactor-test', version: '0.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args }, undefined, { timeout: 240_000 })).structuredContent as Structured;
  for (let attempt = 0; ; attempt += 1) {
    const result = await call('recon', { task: 'rename makeHost across the packages', read_only: false });
    if (result.error?.code !== 'E_INDEX_NOT_READY' || attempt > 600) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { repo, call, close: () => client.close() };
}

/** The real compiler on the repository: `tsc -b` (the solution) and `tsc -p` (the test project). */
function tsc(root: string, ...args: string[]): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [TSC, ...args, '--pretty', 'false'], { cwd: root, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}`.trim() };
}

const rows = (result: Structured) =>
  result.preview!.edits.flatMap((f) => f.hunks.map((h) => `${f.path}:${h.line} ${h.certainty}`));
const git = (repo: string, ...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });

describe('refactors across the projects of a monorepo, over MCP (agentgov serve)', function () {
  this.timeout(300_000);
  let server: Awaited<ReturnType<typeof serve>>;
  before(async () => {
    server = await serve();
  });
  after(async () => {
    await server?.close();
  });

  it('a rename limited by contexts lists every reference it leaves out, with why, in the preview and display_to_user', async () => {
    const preview = await server.call('refactor_rename', {
      symbol: 'makeHost',
      new_name: 'createHost',
      justification: 't',
      include_comments: false,
      contexts: ['packages/core/src'],
    });
    expect(preview.error, JSON.stringify(preview.error)).to.equal(undefined);
    expect(rows(preview)).to.deep.equal(['packages/core/src/host.ts:5 high', 'packages/core/src/index.ts:1 high']);
    const left = preview.preview!.unedited.map((u) => `${u.path}:${u.line} ${u.certainty}`);
    expect(left).to.include.members([
      'packages/app/src/main.ts:1 high',
      'packages/app/src/main.ts:2 high',
      'packages/core/test/host.test.ts:1 high',
      'packages/core/test/host.test.ts:2 high',
      'scripts/loose.mjs:1 high',
      'scripts/loose.mjs:2 high',
    ]);
    expect(preview.preview!.unedited.find((u) => u.path === 'scripts/loose.mjs')?.reason).to.match(/contexts/);
    // the comment mention is not offered (include_comments: false), and that is said too
    expect(
      preview.preview!.unedited.filter((u) => u.certainty === 'low').map((u) => `${u.path}:${u.line} ${u.reason}`),
    ).to.deep.equal(['packages/core/src/host.ts:4 a mention in a comment; include_comments is false']);
    expect(preview.display_to_user).to.match(/7 references left unedited \(6 high, 0 medium, 1 low\)/);
    expect(preview.display_to_user).to.contain('scripts/loose.mjs:2 [high] outside the `contexts`');
    await server.call('refactor_cancel', { refactor_id: preview.refactor_id });
  });

  it('a rename reaches every project, workspace importers by package name and the loose script; the low hunk must be accepted; tsc -b is clean after', async () => {
    const preview = await server.call('refactor_rename', {
      symbol: 'makeHost',
      new_name: 'createHost',
      justification: 't',
    });
    expect(rows(preview)).to.deep.equal([
      'packages/app/src/main.ts:1 high',
      'packages/app/src/main.ts:2 high',
      'packages/core/src/host.ts:4 low',
      'packages/core/src/host.ts:5 high',
      'packages/core/src/index.ts:1 high',
      'packages/core/test/host.test.ts:1 high',
      'packages/core/test/host.test.ts:2 high',
      'scripts/loose.mjs:1 high',
      'scripts/loose.mjs:2 high',
    ]);
    expect(preview.preview!.unedited).to.deep.equal([]);
    const low = preview
      .preview!.edits.find((f) => f.path === 'packages/core/src/host.ts')!
      .hunks.find((h) => h.certainty === 'low')!;
    expect(preview.preview!.pending_review).to.deep.equal([{ path: 'packages/core/src/host.ts', hunks: [low.id] }]);

    const before = readFileSync(join(server.repo, 'packages/core/src/host.ts'), 'utf8');
    const refused = await server.call('refactor_commit', { refactor_id: preview.refactor_id });
    expect(refused.error?.code).to.equal('E_REVIEW_REQUIRED');
    expect(refused.error?.details['counts']).to.deep.equal({ medium: 0, low: 1 });
    expect(refused.error?.details['pending_review']).to.deep.equal([
      { path: 'packages/core/src/host.ts', hunks: [low.id] },
    ]);
    expect(refused.error?.message).to.contain('packages/core/src/host.ts (1)');
    expect(readFileSync(join(server.repo, 'packages/core/src/host.ts'), 'utf8')).to.equal(before);
    const unknown = await server.call('refactor_commit', {
      refactor_id: preview.refactor_id,
      accept: { hunks: ['h999'] },
    });
    expect(unknown.error?.code).to.equal('E_NOT_FOUND');

    const applied = await server.call('refactor_commit', {
      refactor_id: preview.refactor_id,
      accept: { hunks: [low.id] },
    });
    expect(applied.error, JSON.stringify(applied.error)).to.equal(undefined);
    expect(applied['counts']).to.deep.equal({ high: 8, medium: 0, low: 1 });
    expect(readFileSync(join(server.repo, 'packages/core/src/host.ts'), 'utf8')).to.contain(
      '/** createHost builds a host */',
    );
    expect(tsc(server.repo, '-b')).to.deep.equal({ status: 0, output: '' });
    expect(tsc(server.repo, '-p', 'packages/core/test')).to.deep.equal({ status: 0, output: '' });
    git(server.repo, 'add', '-A');
    git(server.repo, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'rename');
  });

  it('a move rewrites importers in the package and its test project; the import by package name of a moved entry is listed unedited', async () => {
    const preview = await server.call('refactor_move', {
      from_path: 'packages/core/src/host.ts',
      to_path: 'packages/core/src/hosting/host.ts',
      justification: 't',
    });
    expect(preview.error, JSON.stringify(preview.error)).to.equal(undefined);
    expect(rows(preview)).to.deep.equal([
      'packages/core/src/index.ts:1 high',
      'packages/core/test/host.test.ts:1 high',
    ]);
    expect(preview.preview!.unedited).to.deep.equal([]);
    expect((await server.call('refactor_commit', { refactor_id: preview.refactor_id })).error).to.equal(undefined);
    expect(tsc(server.repo, '-b')).to.deep.equal({ status: 0, output: '' });
    expect(tsc(server.repo, '-p', 'packages/core/test')).to.deep.equal({ status: 0, output: '' });

    const entry = await server.call('refactor_move', {
      from_path: 'packages/core/src/index.ts',
      to_path: 'packages/core/src/entry.ts',
      justification: 't',
    });
    expect(rows(entry)).to.deep.equal([]);
    expect(entry.preview!.unedited.map((u) => `${u.path}:${u.line}`).sort()).to.deep.equal([
      'packages/app/src/main.ts:1',
      'scripts/loose.mjs:1',
    ]);
    expect(entry.display_to_user).to.match(/2 references left unedited/);
    expect(entry.display_to_user).to.contain("package name '@fx/core'");
    await server.call('refactor_cancel', { refactor_id: entry.refactor_id });
  });

  it('commit contract on a medium hunk: refused until accepted by file; drop_unaccepted applies only the high edits', async () => {
    const preview = await server.call('refactor_rename', {
      symbol: 'Meter.read',
      new_name: 'sample',
      justification: 't',
    });
    expect(preview.error, JSON.stringify(preview.error)).to.equal(undefined);
    expect(rows(preview)).to.deep.equal(['py/meter.py:2 high', 'py/meter.py:7 medium']);
    const refused = await server.call('refactor_commit', { refactor_id: preview.refactor_id });
    expect(refused.error?.code).to.equal('E_REVIEW_REQUIRED');
    expect(refused.error?.details['counts']).to.deep.equal({ medium: 1, low: 0 });

    // drop the medium hunk: the definition alone is renamed and `m.read()` stays
    const dropped = await server.call('refactor_commit', { refactor_id: preview.refactor_id, drop_unaccepted: true });
    expect(dropped.error, JSON.stringify(dropped.error)).to.equal(undefined);
    expect(dropped['not_applied']).to.deep.equal(preview.preview!.pending_review);
    expect(readFileSync(join(server.repo, 'py/meter.py'), 'utf8'))
      .to.contain('    def sample(self):\n')
      .and.to.contain('return m.read()');

    // back, then accept by file: both renamed and the program still runs
    const back = await server.call('refactor_rename', { symbol: 'Meter.sample', new_name: 'read', justification: 't' });
    expect(
      (await server.call('refactor_commit', { refactor_id: back.refactor_id, drop_unaccepted: true })).error,
    ).to.equal(undefined);
    const again = await server.call('refactor_rename', {
      symbol: 'Meter.read',
      new_name: 'sample',
      justification: 't',
    });
    const accepted = await server.call('refactor_commit', {
      refactor_id: again.refactor_id,
      accept: { files: ['py/meter.py'] },
    });
    expect(accepted.error, JSON.stringify(accepted.error)).to.equal(undefined);
    expect(accepted['counts']).to.deep.equal({ high: 1, medium: 1, low: 0 });
    expect(execFileSync('python3', ['py/meter.py'], { cwd: server.repo, encoding: 'utf8' }).trim()).to.equal('1');
  });
});
