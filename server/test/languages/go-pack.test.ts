import { createPluginHost, loadConfig, silentLogger, type PluginHost } from '@agentgov/core';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { openRepositoryIndex, type RepositoryIndex } from '../../src/index/repository-index.js';
import { isTestPath } from '../../src/recon/priors.js';
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
  const call = async (name: string, args: Record<string, unknown>): Promise<Structured> =>
    (await session.client.callTool({ name, arguments: args })).structuredContent as Structured;

  before(async () => {
    const root = makeTempDir('agentgov-go-');
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
      kind: 'main-function',
      name: null,
      declared_in: 'main.go',
      indexed: true,
    });
    expect(entries.map((e) => e.path)).to.deep.equal(['main.go']);
    expect(isTestPath('cart/cart_test.go')).to.equal(true);
    expect(isTestPath('cart/cart.go')).to.equal(false);
  });

  it('graph_cycles finds the import cycle between two Go packages, and none through package siblings', async () => {
    const cycles = await call('graph_cycles', {});
    const members = (cycles['cycles'] as { members: Array<string | { path: string }> }[]).map((c) =>
      c.members.map((m) => (typeof m === 'string' ? m : m.path)),
    );
    expect(members).to.deep.equal([['ledger/a/a.go', 'ledger/b/b.go']]);
  });
});
