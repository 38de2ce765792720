import { createHooks, createRegistries, type ExtractedFacts, type PackModulesContext } from '@agentgov/core';
import { expect } from 'chai';
import Parser from 'tree-sitter';
import plugin, { defaultPackageName, goEntryPoint, goModules, LANGUAGE_PACKS, modulePathOf } from '../src/index.js';

function facts(source: string): ExtractedFacts {
  const pack = LANGUAGE_PACKS[0]!;
  const parser = new Parser();
  parser.setLanguage(pack.grammar as Parser.Language);
  return pack.extract(parser.parse(source), source);
}

const SERVER = `// Package web serves pages.
package web

import (
	"fmt"
	str "strings"
	_ "embed"
	. "example.com/app/dsl"
	"example.com/app/store"
)

// Server serves.
// Second line.
type Server struct {
	// Addr is where it listens.
	Addr, Host string
	store.Backend
	count int
}

// Start starts the server on port.
func (s *Server) Start(port int) error {
	s.count++
	msg := fmt.Sprintf("%d", port)
	s.log(str.ToUpper(msg))
	return store.Open(s.Addr, Limit)
}

func (s Server) log(line string) { fmt.Println(line) }

type Handler interface {
	Serve(path string) (int, error)
}

type ID = string

const Limit = 3

var (
	debug, _ = false, 1
)

func Map[T any](xs []T, f func(T) T) []T {
	out := make([]T, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	c := Config{Name: "callParser"}
	_ = c
	return out
}

func main() { NewServer().Start(8080) }
`;

describe('language-go', () => {
  it('registers the Go pack through the languages hook, resolving its own imports', () => {
    const hooks = createHooks();
    const registries = createRegistries();
    plugin.apply(hooks, {} as never);
    hooks.languages.call(registries.languages);
    expect(registries.languages.values().map((pack) => [pack.name, pack.extensions, pack.moduleSystem])).to.deep.equal([
      ['go', ['.go'], 'pack'],
    ]);
    expect(registries.languages.values()[0]!.modules).to.be.a('function');
  });

  it('doc comments: the comment lines right above, each spec of a type group its own, none across a blank line', () => {
    const { definitions } = facts(`package p

// Detached.

func a() {}

/* Block
 * doc. */
// and a line
func b() {}

// Group doc.
var (
	c = 1
)

// Types doc.
type (
	// D doc.
	D int
	E int
)

// H doc.
const H = 3

const F, G = 1, 2
`);
    const doc = (name: string) => definitions.find((d) => d.qualifiedName === name)!.docstring;
    // each name of a multi-name spec, and not the comma between them
    expect(definitions.filter((d) => d.kind === 'constant').map((d) => d.name)).to.deep.equal(['H', 'F', 'G']);
    expect(['a', 'b', 'D', 'E', 'H'].map(doc)).to.deep.equal([
      null,
      'Block\ndoc. \nand a line',
      'D doc.',
      null,
      'H doc.',
    ]);
  });

  it('packages, structs and fields, methods with receivers, interfaces, consts, vars and generics', () => {
    const { definitions } = facts(SERVER);
    expect(definitions.map((d) => [d.kind, d.qualifiedName, d.exported])).to.deep.equal([
      ['module', 'web', true],
      ['struct', 'Server', true],
      ['field', 'Server.Addr', true],
      ['field', 'Server.Host', true],
      ['field', 'Server.count', false],
      ['method', 'Server.Start', true],
      ['method', 'Server.log', false],
      ['interface', 'Handler', true],
      ['method', 'Handler.Serve', true],
      ['type', 'ID', true],
      ['constant', 'Limit', true],
      ['variable', 'debug', false],
      ['function', 'Map', true],
      ['function', 'main', false],
    ]);
    const byName = new Map(definitions.map((d) => [d.qualifiedName, d]));
    expect(byName.get('web')!.docstring).to.equal('Package web serves pages.');
    expect(byName.get('Server')!.docstring).to.equal('Server serves.\nSecond line.');
    expect(byName.get('Server')!.signature).to.equal('type Server struct');
    expect(byName.get('Server')!.span.startLine).to.equal(14);
    expect(byName.get('Server.Addr')!.docstring).to.equal('Addr is where it listens.');
    expect(byName.get('Server.Start')!.signature).to.equal('func (s *Server) Start(port int) error');
    expect(byName.get('Server.Start')!.docstring).to.equal('Start starts the server on port.');
    expect(byName.get('Server.Start')!.nameSpan).to.deep.equal({
      startLine: 22,
      startCol: 17,
      endLine: 22,
      endCol: 22,
    });
    expect(byName.get('Handler.Serve')!.signature).to.equal('Serve(path string) (int, error)');
    expect(byName.get('Map')!.signature).to.equal('func Map[T any](xs []T, f func(T) T) []T');
    expect(byName.get('Server.Start')!.bodyIdentifiers).to.include.members(['Sprintf', 'count', 'Open']);
  });

  it('imports: aliases, dot and blank imports, default package names', () => {
    expect(facts(SERVER).imports.map((i) => [i.specifier, i.bindings, i.star, i.line])).to.deep.equal([
      ['fmt', [{ imported: '*', local: 'fmt' }], false, 5],
      ['strings', [{ imported: '*', local: 'str' }], false, 6],
      ['embed', [], false, 7],
      ['example.com/app/dsl', [], true, 8],
      ['example.com/app/store', [{ imported: '*', local: 'store' }], false, 9],
    ]);
    expect(defaultPackageName('gopkg.in/yaml.v3')).to.equal('yaml');
    expect(defaultPackageName('github.com/mattn/go-isatty')).to.equal('isatty');
    expect(defaultPackageName('github.com/x/cli/v2')).to.equal('cli');
  });

  it('references: calls, members, types and package-qualified names; the receiver as self; no locals', () => {
    const refs = facts(SERVER).references.filter((r) => r.context !== 'comment' && r.context !== 'string');
    const inStart = refs.filter((r) => r.enclosing === 'Server.Start').map((r) => [r.context, r.qualifier, r.name]);
    expect(inStart).to.deep.equal([
      ['type', null, 'Server'],
      ['type', null, 'int'],
      ['type', null, 'error'],
      ['member', 'self', 'count'],
      ['call', 'fmt', 'Sprintf'],
      ['call', 'self', 'log'],
      ['call', 'str', 'ToUpper'],
      ['call', 'store', 'Open'],
      ['member', 'self', 'Addr'],
      ['value', null, 'Limit'],
    ]);
    const inMap = refs.filter((r) => r.enclosing === 'Map').map((r) => [r.context, r.qualifier, r.name]);
    expect(inMap).to.deep.include.members([
      ['call', null, 'make'],
      ['type', null, 'Config'],
      ['member', 'Config', 'Name'],
    ]);
    // parameters, type parameters and := / range locals are not references
    expect(inMap.map((r) => r[2])).to.not.include.members(['xs', 'T', 'x', 'out', 'c', 'f']);
    expect(refs.find((r) => r.name === 'Backend')).to.include({ context: 'type', qualifier: 'store' });
    expect(refs.filter((r) => r.enclosing === 'main').map((r) => [r.context, r.name])).to.deep.equal([
      ['call', 'NewServer'],
      ['call', 'Start'],
    ]);
    const mentions = facts(SERVER).references.filter((r) => r.context === 'string');
    expect(mentions.map((r) => r.name)).to.deep.equal(['callParser']);
  });

  it('resolves import paths through go.mod to package directories, nested modules first', () => {
    const files = new Set([
      'go.mod',
      'main.go',
      'store/store.go',
      'store/sql.go',
      'store/store_test.go',
      'tools/gen/go.mod',
      'tools/gen/gen.go',
      'tools/gen/internal/x.go',
    ]);
    const texts: Record<string, string> = {
      'go.mod': 'module example.com/app // the app\n\ngo 1.22\n',
      'tools/gen/go.mod': 'module "example.com/gen"\n',
    };
    const context: PackModulesContext = { root: '/r', files, readText: (path) => texts[path] ?? null };
    const modules = goModules(context);
    expect(modules.resolve('main.go', 'example.com/app/store')).to.deep.equal(['store/sql.go', 'store/store.go']);
    expect(modules.resolve('main.go', 'example.com/gen/internal')).to.deep.equal(['tools/gen/internal/x.go']);
    expect(modules.resolve('main.go', 'example.com/app')).to.deep.equal(['main.go']);
    expect(modules.resolve('main.go', 'fmt')).to.deep.equal([]);
    expect(modules.resolve('main.go', 'example.com/application')).to.deep.equal([]);
    expect(modules.resolve('main.go', 'example.com/app/../../etc')).to.deep.equal([]);
    expect(modules.packageScope!('store/sql.go')).to.deep.equal(['store/store.go', 'store/store_test.go']);
    expect(modules.packageScope!('store/store_test.go')).to.deep.equal(['store/sql.go', 'store/store.go']);
    expect(modulePathOf('// c\nmodule  github.com/a/b\n')).to.equal('github.com/a/b');
  });
});

describe('language-go entry points', () => {
  it('a non-test file of package main declaring func main() is an entry, named after its directory', () => {
    expect(goEntryPoint('cmd/shop/main.go', 'package main\n\nfunc main() {}\n')).to.deep.equal({ name: 'shop' });
    expect(
      goEntryPoint('main.go', '// Command x.\npackage main // x\n\nimport "os"\n\nfunc main() { os.Exit(0) }\n'),
    ).to.deep.equal({
      name: null,
    });
    expect(goEntryPoint('lib/lib.go', 'package lib\n\nfunc main() {}\n')).to.equal(null);
    expect(goEntryPoint('main_test.go', 'package main\n\nfunc main() {}\n')).to.equal(null);
    expect(goEntryPoint('tool.go', 'package main\n\nvar s = `\nfunc main() {}\n`\n')).to.equal(null);
  });
});
