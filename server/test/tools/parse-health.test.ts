import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { serveRepository, type ServeSession, type Structured } from './mcp-serve-session.js';

type ParseErrorRow = { path: string; errors: number; missing: number; first_line: number; first_col: number };
type Unparsed = ParseErrorRow & { mentions: number; first_mention_line: number };

/** A Python file and a TypeScript file with syntax errors, each beside code that uses them. */
const REPO = {
  'pkg/__init__.py': '',
  // `kept` comes before the error (extractable); `half` and `lost_inner` are swallowed by it
  'pkg/half.py':
    'def kept():\n    return 1\n\n\ndef half(x:\n    return lost_inner(x)\n\n\ndef lost_inner(y):\n    return y\n',
  'pkg/good.py': 'from pkg.half import kept\n\n\ndef use():\n    return kept() + 1\n',
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }),
  'src/bad.ts': 'export function fine(): number {\n  return 1;\n}\nexport function broken( {\n  return fine(;\n}\n',
  'src/ok.ts': "import { fine } from './bad';\nexport const v = fine();\n",
};

describe('parse health: files that did not parse are recorded and said (recon_scout, recon_impact, previews)', function () {
  this.timeout(300_000);
  let server: ServeSession;
  before(async () => {
    server = await serveRepository(REPO);
  });
  after(async () => {
    await server?.close();
  });

  it('recon_scout lists every file whose syntax tree has errors, with the first error, in any language', async () => {
    const scout = await server.call('recon_scout', {});
    const parse = scout['parse_errors'] as { total: number; shown: number; items: ParseErrorRow[] };
    expect(parse.total).to.equal(2);
    expect(parse.items.map((f) => f.path)).to.deep.equal(['pkg/half.py', 'src/bad.ts']);
    const half = parse.items[0]!;
    expect(half.first_line).to.equal(5);
    expect(half.errors + half.missing).to.be.greaterThan(0);
    expect(parse.items[1]!.first_line).to.equal(4);
    expect(String(scout['context'])).to.contain('2 files did not parse (parse_errors)');
    const text = await server.text('recon_scout', {});
    expect(text).to.match(
      /files that did not parse:\n {2}pkg\/half\.py:5:\d+ — \d+ error and \d+ missing nodes\n {2}src\/bad\.ts:4:\d+/,
    );
  });

  it('recon_impact still finds a definition the partial tree kept, and says the file mentioning it did not parse', async () => {
    const impact = await server.call('recon_impact', { target: 'kept', justification: 'parse health' });
    expect(impact.error, JSON.stringify(impact.error)).to.equal(undefined);
    expect((impact['definitions'] as Array<{ path: string }>).map((d) => d.path)).to.deep.equal(['pkg/half.py']);
    const unparsed = impact['unparsed_files'] as Unparsed[];
    expect(unparsed.map((f) => [f.path, f.first_line, f.first_mention_line])).to.deep.equal([['pkg/half.py', 5, 1]]);
    expect(String(impact['note'])).to.match(
      /^1 file mentioning 'kept' did not parse: pkg\/half\.py \(syntax error at line 5:\d+; 'kept' on line 1\)/,
    );
    const ts = await server.call('recon_impact', { target: 'fine', justification: 'parse health, TypeScript' });
    expect((ts['unparsed_files'] as Unparsed[]).map((f) => f.path)).to.deep.equal(['src/bad.ts']);
    const clean = await server.call('recon_impact', { target: 'use', justification: 'no broken file mentions it' });
    expect(clean['unparsed_files']).to.equal(undefined);
  });

  it('a name only the broken region holds: E_NOT_FOUND says which file did not parse instead of "no such definition" alone', async () => {
    const impact = await server.call('recon_impact', { target: 'lost_inner', justification: 'parse health' });
    expect(impact.error?.code).to.equal('E_NOT_FOUND');
    expect(impact.error?.message).to.match(
      /no definition named 'lost_inner'.*1 file mentioning 'lost_inner' did not parse: pkg\/half\.py \(syntax error at line 5/s,
    );
    expect((impact.error?.details['unparsed_files'] as Unparsed[]).map((f) => f.path)).to.deep.equal(['pkg/half.py']);
  });

  it('refactor previews warn when a file mentioning the renamed name (or the moved module) did not parse', async () => {
    const rename = await server.call('refactor_rename', {
      symbol: 'kept',
      new_name: 'retained',
      justification: 'parse health',
    });
    expect(rename.error, JSON.stringify(rename.error)).to.equal(undefined);
    const warnings = (rename['preview'] as { warnings: string[] }).warnings;
    expect(warnings.some((w) => w.startsWith("1 file mentioning 'kept' did not parse: pkg/half.py"))).to.equal(true);
    expect(String(rename['display_to_user'])).to.contain("Warning: 1 file mentioning 'kept' did not parse");
    await server.call('refactor_cancel', { refactor_id: rename['refactor_id'] });
    const move = await server.call('refactor_move', {
      from_path: 'src/bad.ts',
      to_path: 'src/lib/bad.ts',
      justification: 'parse health',
    });
    expect((move['preview'] as { warnings: string[] }).warnings).to.deep.equal([
      'src/bad.ts did not parse (syntax error at line 4:1): its own imports past that point may be missing from the index and left as they are.',
    ]);
    await server.call('refactor_cancel', { refactor_id: move['refactor_id'] });
  });

  it('a fixed file leaves the list once the index sees it', async () => {
    writeFileSync(
      join(server.repo, 'pkg/half.py'),
      'def kept():\n    return 1\n\n\ndef half(x):\n    return lost_inner(x)\n\n\ndef lost_inner(y):\n    return y\n',
    );
    let scout: Structured = {};
    for (let attempt = 0; attempt < 100; attempt += 1) {
      scout = await server.call('recon_scout', {});
      if ((scout['parse_errors'] as { total: number }).total === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((scout['parse_errors'] as { items: ParseErrorRow[] }).items.map((f) => f.path)).to.deep.equal([
      'src/bad.ts',
    ]);
    const impact = await server.call('recon_impact', { target: 'lost_inner', justification: 'fixed' });
    expect((impact['definitions'] as Array<{ path: string }>).map((d) => d.path)).to.deep.equal(['pkg/half.py']);
    expect(impact['unparsed_files']).to.equal(undefined);
  });
});
