import { createPluginHost, loadConfig, silentLogger, type PluginHost } from '@agentgov/core';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openRepositoryIndex, type RepositoryIndex } from '../../src/index/repository-index.js';
import { connectClient } from '../mcp/session-client.js';
import { gitInit, RECON_PLUGINS } from '../recon/fixture-repo.js';

const SERVER_DIR = fileURLToPath(new URL('../../../', import.meta.url));

/** A Go module: a main package, a package whose methods live in two files, a test file, and a (non-Go) import cycle. */
export const GO_SHOP: Record<string, string> = {
  'go.mod': 'module example.com/shop\n\ngo 1.21\n',
  'main.go': `package main

import (
	"fmt"

	"example.com/shop/cart"
)

func main() {
	c := cart.New()
	c.Add(cart.Item{SKU: "tea", Price: 300})
	fmt.Println(c.Total())
}
`,
  'cart/cart.go': `// Package cart holds a shopping cart.
package cart

// Cart is a list of items and their discounted total.
type Cart struct {
	Items []Item
	total int
}

// New returns an empty cart.
func New() *Cart { return &Cart{} }

// Add puts an item in the cart and recomputes the total.
func (c *Cart) Add(item Item) {
	c.Items = append(c.Items, item)
	c.recalc()
}

// Total is the discounted total in cents.
func (c *Cart) Total() int { return c.total }
`,
  'cart/item.go': `package cart

import "example.com/shop/pricing"

// Item is one product line.
type Item struct {
	SKU   string
	Price int
}

func (c *Cart) recalc() {
	sum := 0
	for _, item := range c.Items {
		sum += item.Price
	}
	c.total = pricing.ApplyLoyaltyDiscount(sum, len(c.Items))
}
`,
  'cart/cart_test.go': `package cart

import "testing"

func TestAdd(t *testing.T) {
	c := New()
	c.Add(Item{SKU: "x", Price: 100})
	if c.Total() != 100 {
		t.Fatal("total")
	}
}
`,
  'pricing/discount.go': `package pricing

// ApplyLoyaltyDiscount takes ten percent off a basket of five or more items.
func ApplyLoyaltyDiscount(sum int, count int) int {
	if count >= 5 {
		return sum * 9 / 10
	}
	return sum
}
`,
  'ledger/a/a.go': 'package a\n\nimport "example.com/shop/ledger/b"\n\nfunc A() int { return b.B() }\n',
  'ledger/b/b.go': 'package b\n\nimport "example.com/shop/ledger/a"\n\nfunc B() int { return a.A() }\n',
};

type Structured = Record<string, unknown> & { error?: { code: string; message: string } };

describe('language-go through the real index and tools', function () {
  this.timeout(120_000);
  let host: PluginHost;
  let index: RepositoryIndex;
  let session: Awaited<ReturnType<typeof connectClient>>;
  let root: string;
  const call = async (name: string, args: Record<string, unknown>): Promise<Structured> =>
    (await session.client.callTool({ name, arguments: args })).structuredContent as Structured;

  before(async () => {
    root = makeTempDir('agentgov-go-');
    writeTree(root, GO_SHOP);
    gitInit(root);
    host = await createPluginHost({
      loaded: loadConfig({ cwd: makeTempDir('agentgov-cwd-') }),
      bundled: [...RECON_PLUGINS, '@agentgov/plugin-language-go'],
      resolveFrom: [SERVER_DIR],
      host: 'server',
      logger: silentLogger,
    });
    index = await openRepositoryIndex({ root, languages: host.registries.languages.values(), logger: silentLogger });
    await index.ready;
    session = await connectClient({ repoRoot: root, index, host, devMode: true });
  });
  after(async () => {
    await session?.close();
    await index?.close();
  });

  it('resolves a package import to every non-test file of the package directory', () => {
    expect(index.imports('main.go').map((edge) => [edge.specifier, edge.to_path])).to.deep.equal([
      ['fmt', null],
      ['example.com/shop/cart', 'cart/cart.go'],
      ['example.com/shop/cart', 'cart/item.go'],
    ]);
    expect(index.importers('pricing/discount.go').map((edge) => edge.from_path)).to.deep.equal(['cart/item.go']);
  });

  it('resolves package-qualified names, receiver members across files, and package siblings (high)', () => {
    const defs = new Map(index.definitions({ path: 'cart/cart.go' }).map((d) => [d.qualified_name, d.def_uid]));
    const item = new Map(index.definitions({ path: 'cart/item.go' }).map((d) => [d.qualified_name, d.def_uid]));
    const pricing = index.definitions({ path: 'pricing/discount.go' }).find((d) => d.kind === 'function')!;
    const refs = (path: string) => index.references({ path }).filter((r) => r.context !== 'comment');
    const to = (path: string, name: string) =>
      refs(path)
        .filter((r) => r.name === name)
        .map((r) => r.to_def_uid);
    // main.go: cart.New, cart.Item through the package import (New in cart.go, Item in item.go)
    expect(to('main.go', 'New')).to.deep.equal([defs.get('New')]);
    expect(to('main.go', 'Item')).to.deep.equal([item.get('Item')]);
    // c.Add on a local of unknown type: same name only
    expect(to('main.go', 'Add')).to.deep.equal([null]);
    // inside Cart.Add: c.recalc() is a method defined in item.go
    expect(to('cart/cart.go', 'recalc')).to.deep.equal([item.get('Cart.recalc')]);
    expect(to('cart/cart.go', 'Item')).to.deep.equal([item.get('Item'), item.get('Item')]);
    // item.go: c.total / c.Items are fields of Cart in cart.go; pricing.ApplyLoyaltyDiscount through the import
    expect(to('cart/item.go', 'total')).to.deep.equal([defs.get('Cart.total')]);
    expect(to('cart/item.go', 'ApplyLoyaltyDiscount')).to.deep.equal([pricing.def_uid]);
    // the test file sees its package's New without an import
    expect(to('cart/cart_test.go', 'New')).to.deep.equal([defs.get('New')]);
  });

  it('recon finds the Go function a task describes', async () => {
    const result = await call('recon', { task: 'the loyalty discount is applied to the cart total wrongly' });
    const names = (result['results'] as { name: string; path: string }[]).slice(0, 5).map((r) => r.name);
    expect(names, JSON.stringify(result['results'])).to.include('ApplyLoyaltyDiscount');
  });

  it('recon_impact: resolved Go references are high, an untyped receiver medium, comments low', async () => {
    const impact = await call('recon_impact', { target: 'Cart.Add', justification: 'renaming it' });
    const refs = impact['references'] as { path: string; line: number; certainty: string }[];
    expect(refs.find((r) => r.path === 'main.go' && r.line === 11)?.certainty).to.equal('medium');
    expect(refs.find((r) => r.path === 'cart/cart_test.go' && r.line === 7)?.certainty).to.equal('medium');
    const discount = await call('recon_impact', { target: 'ApplyLoyaltyDiscount', justification: 'changing it' });
    const found = discount['references'] as { path: string; line: number; certainty: string }[];
    expect(found.find((r) => r.path === 'cart/item.go' && r.line === 16)?.certainty).to.equal('high');
    expect(found.find((r) => r.path === 'pricing/discount.go' && r.line === 3)?.certainty).to.equal('low');
  });

  it('recon_scout lists the main package as an entry point; _test.go files are tests to recon', async () => {
    const briefing = await call('recon_scout', {});
    const entries = (briefing['entry_points'] as { items: { path: string; kind: string; name: string | null }[] })
      .items;
    expect(entries).to.deep.include({
      path: 'main.go',
      kind: 'main',
      name: null,
      declared_in: 'main.go',
      indexed: true,
    });
    expect(entries.map((e) => e.path)).to.deep.equal(['main.go']);
    expect(index.isLanguageTestFile('cart/cart_test.go')).to.equal(true);
    expect(index.isLanguageTestFile('cart/cart.go')).to.equal(false);
  });

  it('an incremental sync re-resolves the package scope of a changed file: unchanged siblings follow a moved definition', async () => {
    const cart = readFileSync(join(root, 'cart/cart.go'), 'utf8');
    writeFileSync(
      join(root, 'cart/cart.go'),
      cart.replace('// New returns an empty cart.\nfunc New() *Cart { return &Cart{} }\n', ''),
    );
    writeFileSync(
      join(root, 'cart/new.go'),
      'package cart\n\n// New returns an empty cart.\nfunc New() *Cart { return &Cart{} }\n',
    );
    await index.refresh();
    const moved = index.definitions({ path: 'cart/new.go' }).find((d) => d.name === 'New')!;
    const uses = index.references({ path: 'cart/cart_test.go' }).filter((r) => r.name === 'New');
    expect(uses.map((r) => r.to_def_uid)).to.deep.equal([moved.def_uid]);
    // A new file changes the file set, so stored edges of unchanged files are re-resolved: main.go's one package
    // import reaches each file of cart once (re-resolving its stored per-file edges once multiplied them by the
    // package's size at every sync: 57,600 copies of one edge in gin after a few dozen commits).
    const cartEdges = [
      ['example.com/shop/cart', 'cart/cart.go'],
      ['example.com/shop/cart', 'cart/item.go'],
      ['example.com/shop/cart', 'cart/new.go'],
    ];
    expect(index.imports('main.go').map((edge) => [edge.specifier, edge.to_path])).to.deep.equal([
      ['fmt', null],
      ...cartEdges,
    ]);
    writeFileSync(join(root, 'cart/cart.go'), cart);
    rmSync(join(root, 'cart/new.go'));
    await index.refresh();
    writeFileSync(join(root, 'cart/extra.go'), 'package cart\n\n// Extra is nothing.\nfunc Extra() {}\n');
    await index.refresh();
    rmSync(join(root, 'cart/extra.go'));
    await index.refresh();
    expect(index.imports('main.go').map((edge) => [edge.specifier, edge.to_path])).to.deep.equal([
      ['fmt', null],
      ...cartEdges.slice(0, 2),
    ]);
    expect(index.importers('pricing/discount.go').map((edge) => edge.from_path)).to.deep.equal(['cart/item.go']);
  });

  it('graph_cycles finds the import cycle between two Go packages, and none through package siblings', async () => {
    const cycles = await call('graph_cycles', {});
    const members = (cycles['cycles'] as { members: Array<string | { path: string }> }[]).map((c) =>
      c.members.map((m) => (typeof m === 'string' ? m : m.path)),
    );
    expect(members).to.deep.equal([['ledger/a/a.go', 'ledger/b/b.go']]);
  });
});

/** The `go` tool, installed from Debian's golang-go when missing (as root), or a clear failure; never a skip. */
function requireGo(): string {
  const probe = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (probe.status === 0) return 'go';
  const root = process.getuid?.() === 0;
  if (root) {
    const install = spawnSync('apt-get', ['install', '-y', '-q', 'golang-go'], { encoding: 'utf8' });
    if (install.status === 0 && spawnSync('go', ['version']).status === 0) return 'go';
  }
  throw new Error(
    'this test checks the renamed Go code with `go vet`, and `go` is not installed: run `apt-get install golang-go` ' +
      (root ? '(the attempt as root failed)' : '(as root)'),
  );
}

/** `go vet ./...`: type-checks every package and its tests; returns its output when it fails. */
function goVet(repo: string): string | null {
  const go = requireGo();
  const env = {
    ...process.env,
    GOFLAGS: '-mod=mod',
    GOPATH: makeTempDir('agentgov-gopath-'),
    GOCACHE: makeTempDir('agentgov-gocache-'),
  };
  const result = spawnSync(go, ['vet', './...'], { cwd: repo, encoding: 'utf8', env });
  return result.status === 0 ? null : `${result.stdout}${result.stderr}`;
}

describe('language-go rename and move, checked by go vet', function () {
  this.timeout(300_000);
  let index: RepositoryIndex;
  let session: Awaited<ReturnType<typeof connectClient>>;
  let root: string;
  const call = async (name: string, args: Record<string, unknown>): Promise<Structured> =>
    (await session.client.callTool({ name, arguments: args })).structuredContent as Structured;
  type Preview = Structured & {
    refactor_id: string;
    preview: {
      edits: { path: string; hunks: { line: number; old: string; new: string; certainty: string }[] }[];
      warnings: string[];
    };
  };

  before(async () => {
    root = makeTempDir('agentgov-go-refactor-');
    const files = Object.fromEntries(Object.entries(GO_SHOP).filter(([path]) => !path.startsWith('ledger/')));
    writeTree(root, { ...files, 'go.mod': 'module example.com/shop\n\ngo 1.18\n' });
    gitInit(root);
    expect(goVet(root)).to.equal(null);
    const host = await createPluginHost({
      loaded: loadConfig({ cwd: makeTempDir('agentgov-cwd-') }),
      bundled: [...RECON_PLUGINS, '@agentgov/plugin-language-go'],
      resolveFrom: [SERVER_DIR],
      host: 'server',
      logger: silentLogger,
    });
    index = await openRepositoryIndex({ root, languages: host.registries.languages.values(), logger: silentLogger });
    await index.ready;
    session = await connectClient({ repoRoot: root, index, host, devMode: true });
    await call('recon', { task: 'rename the cart methods', read_only: false });
  });
  after(async () => {
    await session?.close();
    await index?.close();
  });

  it('renames a method used through receivers in two files, all high; go vet passes', async () => {
    const preview = (await call('refactor_rename', {
      symbol: 'Cart.recalc',
      new_name: 'recompute',
      justification: 'clearer',
    })) as Preview;
    expect(preview.error).to.equal(undefined);
    const hunks = preview.preview.edits.flatMap((f) => f.hunks.map((h) => [f.path, h.line, h.certainty]));
    expect(hunks).to.have.deep.members([
      ['cart/cart.go', 16, 'high'],
      ['cart/item.go', 11, 'high'],
    ]);
    const done = await call('refactor_commit', { refactor_id: preview.refactor_id });
    expect(done['applied'], JSON.stringify(done)).to.equal(true);
    expect(goVet(root)).to.equal(null);
  });

  it('renames a function across packages (high) and a field whose untyped uses are medium; go vet passes', async () => {
    const fn = (await call('refactor_rename', {
      symbol: 'ApplyLoyaltyDiscount',
      new_name: 'LoyaltyDiscount',
      justification: 'shorter',
    })) as Preview;
    const fnHunks = fn.preview.edits.flatMap((f) => f.hunks.map((h) => [f.path, h.line, h.certainty]));
    expect(fnHunks).to.have.deep.members([
      ['pricing/discount.go', 4, 'high'],
      ['cart/item.go', 16, 'high'],
      ['pricing/discount.go', 3, 'low'],
    ]);
    const applied = await call('refactor_commit', { refactor_id: fn.refactor_id, accept: { certainty: 'low' } });
    expect(applied['applied'], JSON.stringify(applied)).to.equal(true);
    expect(readFileSync(join(root, 'pricing/discount.go'), 'utf8')).to.contain('// LoyaltyDiscount takes ten');

    const field = (await call('refactor_rename', {
      symbol: 'Item.Price',
      new_name: 'Cents',
      justification: 'unit in the name',
    })) as Preview;
    const fieldHunks = field.preview.edits.flatMap((f) => f.hunks.map((h) => [f.path, h.line, h.certainty]));
    expect(fieldHunks).to.have.deep.members([
      ['cart/item.go', 8, 'high'],
      ['cart/item.go', 14, 'medium'],
      // `cart.Item{Price: …}`: the key is qualified by the literal's type, resolved through the import.
      ['main.go', 11, 'high'],
      ['cart/cart_test.go', 7, 'high'],
    ]);
    const refused = await call('refactor_commit', { refactor_id: field.refactor_id });
    expect(refused.error?.code).to.equal('E_REVIEW_REQUIRED');
    const done = await call('refactor_commit', { refactor_id: field.refactor_id, accept: { certainty: 'medium' } });
    expect(done['applied'], JSON.stringify(done)).to.equal(true);
    expect(goVet(root)).to.equal(null);
  });

  it('moves a package directory: importers get the new path, aliased to keep the package name; go vet passes', async () => {
    const preview = (await call('refactor_move', {
      from_path: 'pricing',
      to_path: 'billing/rates',
      justification: 'billing owns prices',
    })) as Preview;
    expect(preview.error, JSON.stringify(preview.error)).to.equal(undefined);
    const hunks = preview.preview.edits.flatMap((f) => f.hunks.map((h) => [f.path, h.line, h.new]));
    expect(hunks).to.deep.equal([['cart/item.go', 3, 'pricing "example.com/shop/billing/rates"']]);
    expect(preview.preview.warnings.join('\n')).to.contain('keeps package pricing');
    const done = await call('refactor_commit', { refactor_id: preview.refactor_id });
    expect(done['applied'], JSON.stringify(done)).to.equal(true);
    expect(readFileSync(join(root, 'cart/item.go'), 'utf8')).to.contain(
      'import pricing "example.com/shop/billing/rates"',
    );
    expect(goVet(root)).to.equal(null);
  });

  it('refuses to move one file out of its package', async () => {
    const refused = await call('refactor_move', {
      from_path: 'cart/item.go',
      to_path: 'items/item.go',
      justification: 'split',
    });
    expect(refused.error?.code).to.equal('E_INVALID_ARGUMENT');
    expect(refused.error?.message).to.contain('changes its package');
  });
});
