import { makeTempDir, writeTree } from '@agentgov/core/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { z } from 'zod';
import { describeTool } from '../../src/tools/describe.js';
import { defineTool, type AnyToolDefinition } from '../../src/tools/tool.js';
import { connectClient, ControlledIndex } from './session-client.js';

/** Tools written for these tests: each exercises one rule of the dispatcher. */
const readFile = defineTool({
  name: 'test_read',
  group: 'Discovery',
  readOnly: true,
  brief: 'Reads the size of one repository file.',
  description: 'Reads the size of one repository file, in full.',
  inputSchema: z
    .object({
      path: z.string().describe('Repo-relative path'),
      limit: z.number().int().min(1).default(5).describe('A bounded integer'),
    })
    .strict(),
  returns: 'path and limit',
  whenToUse: 'tests',
  related: [],
  errors: ['E_PATH_OUTSIDE_REPO'],
  example: { path: 'a.ts' },
  needsIndex: true,
  pathArguments: ['path'],
  async handler(args, ctx) {
    return { path: ctx.resolveRepoPath(args.path).relative, limit: args.limit };
  },
});
const docs = {
  brief: 'A test tool.',
  description: 'A test tool.',
  returns: 'an object',
  whenToUse: 'tests',
  related: [],
  errors: [],
  example: {},
};
const mutate = defineTool({
  ...docs,
  name: 'test_mutate',
  group: 'Refactor',
  readOnly: false,
  needsIndex: false,
  inputSchema: z.object({}).strict(),
  async handler() {
    return { ok: true };
  },
});
const crash = defineTool({
  ...docs,
  name: 'test_crash',
  group: 'Analysis',
  readOnly: true,
  needsIndex: false,
  inputSchema: z.object({}).strict(),
  async handler(): Promise<object> {
    throw new TypeError('boom');
  },
});
const devOnly = defineTool({ ...readFile, name: 'test_dev_only', devOnly: true });
let warmed = 0;
const warming = defineTool({
  ...docs,
  name: 'test_warm',
  group: 'Analysis',
  readOnly: true,
  needsIndex: true,
  inputSchema: z.object({}).strict(),
  async handler() {
    return { warmed };
  },
  warm: () => void warmed++,
});
const TEST_TOOLS: AnyToolDefinition[] = [describeTool, readFile, mutate, crash, devOnly, warming];

type ErrorBody = { error: { code: string; message: string; remediation: string; details: Record<string, unknown> } };
const errorOf = (result: unknown) => {
  const r = result as CallToolResult;
  expect(r.isError, JSON.stringify(r)).to.equal(true);
  return (r.structuredContent as ErrorBody).error;
};

describe('tool dispatch over MCP (in-process client)', () => {
  let client: Client;
  let index: ControlledIndex;
  let close: () => Promise<void>;
  const logs: unknown[] = [];

  before(async () => {
    const repo = makeTempDir('agentgov-dispatch-');
    writeTree(repo, { 'a.ts': 'export const a = 1;\n' });
    index = new ControlledIndex();
    ({ client, close } = await connectClient({
      repoRoot: repo,
      index,
      tools: TEST_TOOLS,
      progressIntervalMs: 0,
      indexWaitMs: 0,
    }));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
  });
  after(async () => close());

  it('lists each tool with its strict JSON Schema, defaults, descriptions and annotations; dev-only tools hidden', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.deep.equal(['describe', 'test_read', 'test_mutate', 'test_crash', 'test_warm']);
    const read = tools.find((t) => t.name === 'test_read')!;
    expect(read.inputSchema).to.deep.include({ type: 'object', required: ['path'], additionalProperties: false });
    expect(read.inputSchema.properties!['limit']).to.deep.include({
      type: 'integer',
      default: 5,
      minimum: 1,
      description: 'A bounded integer',
    });
    expect(read.annotations).to.deep.include({ readOnlyHint: true }).and.not.have.property('destructiveHint');
    expect(tools.find((t) => t.name === 'test_mutate')!.annotations).to.deep.include({
      readOnlyHint: false,
      destructiveHint: true,
    });
  });

  it('answers E_INDEX_NOT_READY with progress while the index builds, with an MCP progress notification when asked', async () => {
    index.advance(3, 10);
    const progress: unknown[] = [];
    const result = await client.callTool({ name: 'test_read', arguments: { path: 'a.ts' } }, undefined, {
      onprogress: (p) => void progress.push(p),
    });
    const error = errorOf(result);
    expect(error.code).to.equal('E_INDEX_NOT_READY');
    expect(error.details['progress']).to.deep.equal({ done: 3, total: 10, phase: 'parsing' });
    expect(error.details['waited_ms']).to.be.a('number');
    expect(error.message).to.equal('the repository index is still being built (3/10 files)');
    expect(progress).to.deep.equal([{ progress: 3, total: 10, message: 'indexing the repository' }]);
  });

  it('refuses a path outside the repository before the index gate, even while indexing', async () => {
    expect(errorOf(await client.callTool({ name: 'test_read', arguments: { path: '../outside' } })).code).to.equal(
      'E_PATH_OUTSIDE_REPO',
    );
  });

  it('broadcasts indexing progress as logging notifications, then answers once ready', async () => {
    index.advance(10, 10);
    await new Promise((r) => setTimeout(r, 50));
    expect(logs).to.deep.include({
      level: 'info',
      logger: 'agentgov.index',
      data: { event: 'index_ready', done: 10, total: 10, phase: 'ready' },
    });
    const result = (await client.callTool({ name: 'test_read', arguments: { path: 'a.ts' } })) as CallToolResult;
    expect(result.isError).to.not.equal(true);
    expect(result.structuredContent).to.deep.equal({ path: 'a.ts', limit: 5 });
    expect(result.content[0]).to.deep.equal({ type: 'text', text: 'path: a.ts\nlimit: 5' });
    // tools with a warm-up ran it once, after the first build
    expect((await client.callTool({ name: 'test_warm', arguments: {} })).structuredContent).to.deep.equal({
      warmed: 1,
    });
  });

  const malformed: [string, Record<string, unknown>, string, string][] = [
    ['a wrong type', { path: 42 }, 'E_INVALID_ARGUMENT', 'path'],
    ['an unknown field', { path: 'a.ts', colour: 'red' }, 'E_INVALID_ARGUMENT', 'colour'],
    ['a missing required field', { limit: 2 }, 'E_INVALID_ARGUMENT', 'path'],
    ['an out-of-range integer', { path: 'a.ts', limit: 0 }, 'E_INVALID_ARGUMENT', 'limit'],
    ['a non-integer', { path: 'a.ts', limit: 1.5 }, 'E_INVALID_ARGUMENT', 'limit'],
    ['a .. path', { path: '../../etc/passwd' }, 'E_PATH_OUTSIDE_REPO', 'path'],
    ['an absolute path outside', { path: '/etc/passwd' }, 'E_PATH_OUTSIDE_REPO', 'path'],
  ];
  for (const [what, args, code, field] of malformed) {
    it(`answers ${code} for ${what}, and the server keeps serving`, async () => {
      const error = errorOf(await client.callTool({ name: 'test_read', arguments: args }));
      expect(error.code).to.equal(code);
      expect(error.remediation).to.be.a('string').and.not.empty;
      if (code === 'E_INVALID_ARGUMENT')
        expect((error.details['issues'] as { path: string }[]).map((i) => i.path)).to.include(field);
      else expect(error.details['path']).to.equal(args[field]);
      const after = (await client.callTool({ name: 'test_read', arguments: { path: 'a.ts' } })) as CallToolResult;
      expect(after.isError).to.not.equal(true);
    });
  }

  it('turns a handler crash into E_INTERNAL without losing the server', async () => {
    const error = errorOf(await client.callTool({ name: 'test_crash', arguments: {} }));
    expect(error.code).to.equal('E_INTERNAL');
    expect(error.message).to.contain('boom');
    expect(
      errorOf(await client.callTool({ name: 'describe', arguments: { action: 'error', code: 'E_NOPE' } })).code,
    ).to.equal('E_NOT_FOUND');
  });

  it('answers an unknown tool name with E_NOT_FOUND listing what exists', async () => {
    const error = errorOf(await client.callTool({ name: 'test_dev_only', arguments: { path: 'a.ts' } }));
    expect(error.code).to.equal('E_NOT_FOUND');
    expect(error.details['available']).to.deep.equal([
      'describe',
      'test_read',
      'test_mutate',
      'test_crash',
      'test_warm',
    ]);
  });
});

describe('index-backed calls wait a bounded time for the first build (in-process client)', () => {
  const repo = () => {
    const root = makeTempDir('agentgov-wait-');
    writeTree(root, { 'a.ts': 'export const a = 1;\n' });
    return root;
  };
  const until = async (condition: () => boolean) => {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it('waits for the build and answers, sending a progress notification per step when the call carries a progressToken', async () => {
    const index = new ControlledIndex();
    index.advance(1, 4);
    const { client, close } = await connectClient({
      repoRoot: repo(),
      index,
      tools: TEST_TOOLS,
      progressIntervalMs: 0,
      indexWaitMs: 60_000,
    });
    try {
      const progress: { progress: number; total?: number; message?: string }[] = [];
      const answer = client.callTool({ name: 'test_read', arguments: { path: 'a.ts' } }, undefined, {
        onprogress: (p) => void progress.push(p),
      });
      await until(() => progress.length === 1);
      index.advance(2, 4);
      await until(() => progress.length === 2);
      index.advance(2, 4); // no step: no notification (progress only increases)
      index.advance(3, 4);
      index.advance(4, 4);
      const result = (await answer) as CallToolResult;
      expect(result.isError, JSON.stringify(result.structuredContent)).to.not.equal(true);
      expect(result.structuredContent).to.deep.equal({ path: 'a.ts', limit: 5 });
      const values = progress.map((p) => p.progress);
      expect(values.slice(0, 3)).to.deep.equal([1, 2, 3]);
      expect(values).to.deep.equal([...new Set(values)].sort((a, b) => a - b));
      for (const p of progress) expect(p).to.deep.include({ total: 4, message: 'indexing the repository' });
    } finally {
      await close();
    }
  });

  it('answers E_INDEX_NOT_READY with the progress and the time waited once the bound passes', async () => {
    const index = new ControlledIndex();
    index.advance(2, 10);
    const { client, close } = await connectClient({
      repoRoot: repo(),
      index,
      tools: TEST_TOOLS,
      progressIntervalMs: 0,
      indexWaitMs: 300,
    });
    try {
      const error = errorOf(await client.callTool({ name: 'test_read', arguments: { path: 'a.ts' } }));
      expect(error.code).to.equal('E_INDEX_NOT_READY');
      expect(error.details['progress']).to.deep.equal({ done: 2, total: 10, phase: 'parsing' });
      expect(error.details['waited_ms']).to.be.at.least(250);
      expect(error.message).to.match(/^the repository index is still being built \(2\/10 files; waited \d+\.\d s\)$/);
      // tools that need no index answer at once
      expect(
        (
          (await client.callTool({
            name: 'describe',
            arguments: { action: 'error', code: 'E_INDEX_NOT_READY' },
          })) as CallToolResult
        ).isError,
      ).to.not.equal(true);
    } finally {
      await close();
    }
  });
});

describe('dev mode', () => {
  it('lists dev-only tools only with devMode', async () => {
    const repo = makeTempDir('agentgov-dev-');
    const { client, close } = await connectClient({
      repoRoot: repo,
      index: new ControlledIndex(),
      tools: TEST_TOOLS,
      devMode: true,
    });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).to.include('test_dev_only');
    } finally {
      await close();
    }
  });
});

describe('session state', () => {
  it('blocks mutating tools in a research-only session with E_READ_ONLY_SESSION, per session', async () => {
    const repo = makeTempDir('agentgov-ro-');
    const { client, toolServer, close } = await connectClient({
      repoRoot: repo,
      index: new ControlledIndex(),
      tools: TEST_TOOLS,
    });
    try {
      const setReadOnly = defineTool({
        ...docs,
        name: 'x',
        group: 'Discovery',
        needsIndex: false,
        inputSchema: z.object({}).strict(),
        readOnly: true,
        async handler(_args, ctx) {
          ctx.session.readOnly = true;
          return {};
        },
      });
      expect((await client.callTool({ name: 'test_mutate', arguments: {} })).isError).to.not.equal(true);
      // a second server whose first tool flips the session: the state lives in the session, not in the tool server
      const { client: other, close: closeOther } = await connectClient({
        repoRoot: repo,
        index: new ControlledIndex(),
        tools: [setReadOnly, mutate],
      });
      await other.callTool({ name: 'x', arguments: {} });
      expect(errorOf(await other.callTool({ name: 'test_mutate', arguments: {} })).code).to.equal(
        'E_READ_ONLY_SESSION',
      );
      expect((await client.callTool({ name: 'test_mutate', arguments: {} })).isError).to.not.equal(true);
      expect(toolServer.sessionCount).to.equal(1);
      await closeOther();
    } finally {
      await close();
    }
  });
});
