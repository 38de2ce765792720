import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { openRepositoryIndex, type RepositoryIndex } from '../../src/index/repository-index.js';
import { gitRepo, LANGUAGES, memoryLogger, removeRepos } from '../index/fixture-repos.js';
import { serveRepository, type ServeSession } from './mcp-serve-session.js';

/** A Maven-layout Java project: two packages, a same-package cycle (Cart ↔ LineItem), a static import, a main. */
export const SHOP_JAVA: Record<string, string> = {
  'pom.xml':
    '<project><modelVersion>4.0.0</modelVersion><groupId>com.acme</groupId><artifactId>shop</artifactId><version>1</version></project>\n',
  'src/main/java/com/acme/util/Money.java': `package com.acme.util;

/** An amount of money in cents. */
public final class Money {
  public static final Money ZERO = new Money(0);
  private final long cents;

  public Money(long cents) {
    this.cents = cents;
  }

  public long cents() {
    return cents;
  }

  /** Adds two amounts of money. */
  public Money plus(Money other) {
    return new Money(cents + other.cents);
  }
}
`,
  'src/main/java/com/acme/util/Strings.java': `package com.acme.util;

public final class Strings {
  private Strings() {}

  /** Pads text on the left to a width. */
  public static String pad(String text, int width) {
    StringBuilder out = new StringBuilder();
    for (int i = text.length(); i < width; i++) out.append(' ');
    return out.append(text).toString();
  }
}
`,
  'src/main/java/com/acme/shop/Cart.java': `package com.acme.shop;

import com.acme.util.Money;
import static com.acme.util.Strings.pad;

/** A shopping cart holding line items. */
public class Cart {
  private final java.util.List<LineItem> items = new java.util.ArrayList<>();

  public void add(LineItem item) {
    items.add(item);
  }

  /** Computes the total price of every line item in the cart. */
  public Money computeTotal() {
    Money total = Money.ZERO;
    for (LineItem item : items) total = total.plus(item.price());
    return total;
  }

  public String describe() {
    return pad(computeTotal().cents() + "", 8);
  }
}
`,
  'src/main/java/com/acme/shop/LineItem.java': `package com.acme.shop;

import com.acme.util.*;

public record LineItem(String name, Money price) {
  Cart emptyCart() {
    return new Cart();
  }
}
`,
  'src/main/java/com/acme/shop/Discounts.java': `package com.acme.shop;

/** Discount rules applied at checkout. */
public class Discounts {
  /** Applies the loyalty discount for returning customers with many visits. */
  public static long applyLoyaltyDiscount(long cents, int visits) {
    return visits > 10 ? cents * 9 / 10 : cents;
  }
}
`,
  'src/main/java/com/acme/App.java': `package com.acme;

import com.acme.shop.Cart;
import com.acme.shop.Discounts;
import com.acme.shop.LineItem;
import com.acme.util.Money;

public class App {
  public static void main(String[] args) {
    Cart cart = new Cart();
    cart.add(new LineItem("tea", new Money(250)));
    System.out.println(cart.describe() + Discounts.applyLoyaltyDiscount(250, 11));
  }
}
`,
  'src/test/java/com/acme/shop/CartTest.java': `package com.acme.shop;

import com.acme.util.Money;

public class CartTest {
  void totalsTheItems() {
    Cart cart = new Cart();
    cart.add(new LineItem("x", new Money(1)));
    if (cart.computeTotal().cents() != 1) throw new AssertionError();
  }
}
`,
};

const CART = 'src/main/java/com/acme/shop/Cart.java';
const MONEY = 'src/main/java/com/acme/util/Money.java';

/** javac from Debian's default-jdk-headless: installed when missing (as root), else a clear failure. */
function javac(): string {
  try {
    execFileSync('javac', ['-version'], { stdio: 'ignore' });
    return 'javac';
  } catch {
    try {
      execFileSync('apt-get', ['install', '-y', '-q', 'default-jdk-headless'], { stdio: 'ignore' });
      execFileSync('javac', ['-version'], { stdio: 'ignore' });
      return 'javac';
    } catch (error) {
      throw new Error(
        `javac is needed to check the Java refactors and could not be installed (apt-get install default-jdk-headless): ${(error as Error).message}`,
      );
    }
  }
}

function javaFiles(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'out' || name === '.git' ? [] : javaFiles(path, root);
    return name.endsWith('.java') ? [path] : [];
  });
}

/** Compiles every Java file of the repository; returns javac's output (empty when clean) or throws with it. */
function compile(repo: string): string {
  return execFileSync(javac(), ['-d', join(repo, 'out'), ...javaFiles(repo)], { cwd: repo, encoding: 'utf8' });
}

describe('java pack: the index over a Maven project', () => {
  let index: RepositoryIndex;
  before(async () => {
    index = await openRepositoryIndex({
      root: gitRepo(SHOP_JAVA),
      languages: LANGUAGES,
      logger: memoryLogger().logger,
    });
    await index.ready;
  });
  after(async () => {
    await index?.close();
    removeRepos();
  });

  it("the pack's test convention marks test files; main code is not test code", () => {
    expect(index.isLanguageTestFile('src/test/java/com/acme/shop/CartTest.java')).to.equal(true);
    expect(index.isLanguageTestFile('lib/CartTests.java')).to.equal(true);
    expect(index.isLanguageTestFile(CART)).to.equal(false);
  });

  it('definitions carry kinds, qualified names, signatures and Javadoc', () => {
    const defs = index.definitions({ path: MONEY }).map((d) => `${d.kind} ${d.qualified_name}`);
    expect(defs).to.deep.equal([
      'module com.acme.util',
      'class Money',
      'constant Money.ZERO',
      'field Money.cents',
      'constructor Money.Money',
      'method Money.cents',
      'method Money.plus',
    ]);
    const plus = index.definitions({ qualifiedName: 'Money.plus' })[0]!;
    expect(plus.signature).to.equal('public Money plus(Money other)');
    expect(plus.docstring).to.equal('Adds two amounts of money.');
  });

  it('imports resolve to files: single-type, static, on-demand and same-package (implicit) ones', () => {
    const edges = (path: string) => index.imports(path).map((e) => `${e.specifier} -> ${e.to_path}`);
    expect(edges(CART)).to.deep.equal([
      `com.acme.util.Money -> ${MONEY}`,
      'com.acme.util.Strings.pad -> src/main/java/com/acme/util/Strings.java',
      'com.acme.shop.LineItem -> src/main/java/com/acme/shop/LineItem.java',
    ]);
    expect(edges('src/main/java/com/acme/shop/LineItem.java')).to.have.members([
      'com.acme.util.* -> src/main/java/com/acme/util/Money.java',
      'com.acme.util.* -> src/main/java/com/acme/util/Strings.java',
      'com.acme.shop.Cart -> src/main/java/com/acme/shop/Cart.java',
    ]);
    // the test root shares the package with the main root
    expect(edges('src/test/java/com/acme/shop/CartTest.java')).to.include(
      'com.acme.shop.Cart -> src/main/java/com/acme/shop/Cart.java',
    );
  });

  it('references resolve through imports, static imports, Class.member and this (high); an untyped receiver stays unresolved', () => {
    const uid = (q: string) => index.definitions({ qualifiedName: q })[0]!.def_uid;
    const refs = index.references({ path: CART }).filter((r) => r.context !== 'comment' && r.context !== 'string');
    const at = (name: string, line: number) => refs.find((r) => r.name === name && r.start_line === line);
    expect(at('ZERO', 16)?.to_def_uid).to.equal(uid('Money.ZERO'));
    expect(at('pad', 22)?.to_def_uid).to.equal(uid('Strings.pad'));
    expect(at('pad', 4)?.to_def_uid).to.equal(uid('Strings.pad'));
    expect(at('LineItem', 10)?.to_def_uid).to.equal(uid('LineItem'));
    expect(at('computeTotal', 22)?.to_def_uid).to.equal(uid('Cart.computeTotal'));
    expect(at('items', 11)?.to_def_uid).to.equal(uid('Cart.items'));
    expect(at('plus', 17)).to.include({ qualifier: 'total', to_def_uid: null, context: 'call' });
  });
});

describe('java pack over MCP: recon, recon_impact, graph_cycles, recon_scout, rename and move checked by javac', function () {
  this.timeout(300_000);
  let server: ServeSession;
  before(async () => {
    javac();
    server = await serveRepository(SHOP_JAVA);
    expect(compile(server.repo)).to.equal('');
  });
  after(async () => {
    await server?.close();
  });

  it('recon finds a method from a task description', async () => {
    const result = await server.call('recon', { task: 'apply the loyalty discount for returning customers' });
    const results = result['results'] as { path: string; detail: string }[];
    expect(results[0]!.path).to.equal('src/main/java/com/acme/shop/Discounts.java');
    const total = (await server.call('recon', { task: 'compute the total price of the cart' }))['results'] as {
      path: string;
    }[];
    expect(total[0]!.path).to.equal(CART);
  });

  it('recon_impact: resolved uses are high, an untyped receiver medium', async () => {
    const impact = await server.call('recon_impact', { target: 'Money.plus', justification: 'renaming it' });
    const refs = impact['references'] as { path: string; line: number; certainty: string }[];
    expect(refs.find((r) => r.path === CART && r.line === 17)?.certainty).to.equal('medium');
    const pad = await server.call('recon_impact', { target: 'Strings.pad', justification: 'renaming it' });
    const padRefs = (pad['references'] as { path: string; line: number; certainty: string }[]).filter(
      (r) => r.path === CART,
    );
    expect(padRefs.map((r) => `${r.line} ${r.certainty}`)).to.include.members(['4 high', '22 high']);
  });

  it('graph_cycles sees the same-package cycle; recon_scout lists the main class', async () => {
    const cycles = (await server.call('graph_cycles', {}))['cycles'] as { members: string[] }[];
    expect(cycles.map((c) => c.members)).to.deep.equal([[CART, 'src/main/java/com/acme/shop/LineItem.java']]);
    const scout = await server.call('recon_scout', {});
    const entries = (scout['entry_points'] as { items: { path: string; kind: string; name: string }[] }).items;
    expect(entries).to.deep.include({
      path: 'src/main/java/com/acme/App.java',
      kind: 'main',
      name: null,
      declared_in: 'src/main/java/com/acme/App.java',
      indexed: true,
    });
  });

  it('renames a static method through its static import and a method with an untyped receiver; javac compiles the result', async () => {
    const pad = await server.call('refactor_rename', {
      symbol: 'Strings.pad',
      new_name: 'padLeft',
      justification: 'clearer name',
    });
    expect(pad.error, JSON.stringify(pad.error)).to.equal(undefined);
    expect((pad['preview'] as { counts: Record<string, number> }).counts).to.deep.include({ high: 3, medium: 0 });
    expect((await server.call('refactor_commit', { refactor_id: pad['refactor_id'] })).error).to.equal(undefined);
    const plus = await server.call('refactor_rename', { symbol: 'Money.plus', new_name: 'add', justification: 't' });
    expect((plus['preview'] as { counts: Record<string, number> }).counts).to.deep.include({ high: 1, medium: 1 });
    const committed = await server.call('refactor_commit', {
      refactor_id: plus['refactor_id'],
      accept: { certainty: 'medium' },
    });
    expect(committed.error, JSON.stringify(committed.error)).to.equal(undefined);
    const cart = readFileSync(join(server.repo, CART), 'utf8');
    expect(cart).to.contain('import static com.acme.util.Strings.padLeft;');
    expect(cart).to.contain('return padLeft(computeTotal().cents() + "", 8);');
    expect(cart).to.contain('total = total.add(item.price());');
    expect(compile(server.repo)).to.equal('');
  });

  it('renames a class with its constructors and uses, warns that the file must follow, and the move that follows compiles', async () => {
    const renamed = await server.call('refactor_rename', {
      symbol: 'Discounts',
      new_name: 'Promotions',
      justification: 'naming',
    });
    expect(renamed.error, JSON.stringify(renamed.error)).to.equal(undefined);
    const preview = renamed['preview'] as { warnings: string[]; counts: Record<string, number> };
    expect(preview.warnings.join('\n')).to.contain('src/main/java/com/acme/shop/Promotions.java');
    expect(preview.counts).to.deep.include({ high: 3, medium: 0 });
    expect((await server.call('refactor_commit', { refactor_id: renamed['refactor_id'] })).error).to.equal(undefined);
    const moved = await server.call('refactor_move', {
      from_path: 'src/main/java/com/acme/shop/Discounts.java',
      to_path: 'src/main/java/com/acme/shop/Promotions.java',
      justification: 'the file follows its class',
    });
    expect(moved.error, JSON.stringify(moved.error)).to.equal(undefined);
    expect((await server.call('refactor_commit', { refactor_id: moved['refactor_id'] })).error).to.equal(undefined);
    const text = readFileSync(join(server.repo, 'src/main/java/com/acme/shop/Promotions.java'), 'utf8');
    expect(text).to.contain('public class Promotions {');
    const app = readFileSync(join(server.repo, 'src/main/java/com/acme/App.java'), 'utf8');
    expect(app).to.contain('import com.acme.shop.Promotions;');
    expect(app).to.contain('Promotions.applyLoyaltyDiscount(250, 11)');
    expect(compile(server.repo)).to.equal('');
  });

  it('moves a class to another package: package line, imports and on-demand users rewritten; javac compiles the result', async () => {
    const moved = await server.call('refactor_move', {
      from_path: MONEY,
      to_path: 'src/main/java/com/acme/money/Money.java',
      justification: 'money gets its own package',
    });
    expect(moved.error, JSON.stringify(moved.error)).to.equal(undefined);
    const committed = await server.call('refactor_commit', { refactor_id: moved['refactor_id'] });
    expect(committed.error, JSON.stringify(committed.error)).to.equal(undefined);
    const read = (path: string) => readFileSync(join(server.repo, path), 'utf8');
    expect(read('src/main/java/com/acme/money/Money.java')).to.match(/^package com\.acme\.money;/);
    expect(read(CART)).to.contain('import com.acme.money.Money;');
    expect(read('src/main/java/com/acme/shop/LineItem.java')).to.contain('import com.acme.money.Money;');
    expect(read('src/test/java/com/acme/shop/CartTest.java')).to.contain('import com.acme.money.Money;');
    expect(compile(server.repo)).to.equal('');
  });

  it('moves a class out of its package: its old package-mates and the class itself gain the imports it had for free', async () => {
    const moved = await server.call('refactor_move', {
      from_path: 'src/main/java/com/acme/shop/LineItem.java',
      to_path: 'src/main/java/com/acme/order/LineItem.java',
      justification: 'line items belong to orders',
    });
    expect(moved.error, JSON.stringify(moved.error)).to.equal(undefined);
    const committed = await server.call('refactor_commit', { refactor_id: moved['refactor_id'] });
    expect(committed.error, JSON.stringify(committed.error)).to.equal(undefined);
    const read = (path: string) => readFileSync(join(server.repo, path), 'utf8');
    const item = read('src/main/java/com/acme/order/LineItem.java');
    expect(item).to.match(/^package com\.acme\.order;/);
    expect(item).to.contain('import com.acme.shop.Cart;');
    expect(read(CART)).to.contain('import com.acme.order.LineItem;');
    expect(read('src/main/java/com/acme/App.java')).to.contain('import com.acme.order.LineItem;');
    expect(read('src/test/java/com/acme/shop/CartTest.java')).to.contain('import com.acme.order.LineItem;');
    expect(compile(server.repo)).to.equal('');
  });
});
