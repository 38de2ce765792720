import { createHooks, createRegistries, type ExtractedFacts } from '@agentgov/core';
import { expect } from 'chai';
import Parser from 'tree-sitter';
import plugin, { LANGUAGE_PACKS } from '../src/index.js';

function facts(source: string): ExtractedFacts {
  const pack = LANGUAGE_PACKS[0]!;
  const parser = new Parser();
  parser.setLanguage(pack.grammar as Parser.Language);
  return pack.extract(parser.parse(source), source);
}

describe('language-python', () => {
  it('registers the Python pack through the languages hook', () => {
    const hooks = createHooks();
    const registries = createRegistries();
    plugin.apply(hooks, {} as never);
    hooks.languages.call(registries.languages);
    expect(registries.languages.values().map((pack) => [pack.name, pack.extensions, pack.moduleSystem])).to.deep.equal([
      ['python', ['.py', '.pyi'], 'python'],
    ]);
  });

  it('decorated methods, nested functions, private names, docstrings and signatures', () => {
    const result = facts(`import os.path as osp
from ..util import (read, write as w)
from . import *


class Cache:
    """An LRU cache.

    Second line.
    """

    @property
    def size(self) -> int:
        return len(self._items)

    def _evict(self):
        def pick(entries):
            return entries[0]
        return pick(self._items)


_registry = {}
`);
    expect(
      result.definitions.map((def) => [def.kind, def.qualifiedName, def.exported, def.span.startLine, def.signature]),
    ).to.deep.equal([
      ['class', 'Cache', true, 6, 'class Cache'],
      ['method', 'Cache.size', true, 12, 'def size(self) -> int'],
      ['method', 'Cache._evict', false, 16, 'def _evict(self)'],
      ['function', 'Cache._evict.pick', false, 17, 'def pick(entries)'],
      ['variable', '_registry', false, 22, '_registry = {}'],
    ]);
    expect(result.definitions[0]!.docstring).to.equal('An LRU cache.\n\nSecond line.');
    expect(result.imports.map((entry) => [entry.specifier, entry.star, entry.bindings])).to.deep.equal([
      ['os.path', false, [{ imported: '*', local: 'osp' }]],
      [
        '..util',
        false,
        [
          { imported: 'read', local: 'read' },
          { imported: 'write', local: 'w' },
        ],
      ],
      ['.', true, []],
    ]);
    // Parameters and locals (`self`, `entries`) are bound in their function: not references. The builtin stays
    // (the indexer drops names no definition has).
    expect(result.references.filter((ref) => ref.context === 'value').map((ref) => ref.name)).to.deep.equal([
      'property',
    ]);
    const calls = result.references
      .filter((ref) => ref.context === 'call')
      .map((ref) => [ref.name, ref.qualifier, ref.enclosing]);
    expect(calls).to.deep.equal([
      ['len', null, 'Cache.size'],
      ['pick', null, 'Cache._evict'],
    ]);
  });

  it('imports under if TYPE_CHECKING are type-only and imports in function bodies are deferred', () => {
    const result = facts(`from __future__ import annotations
import typing
from typing import TYPE_CHECKING
from .app import Flask

if TYPE_CHECKING:
    from .wrappers import Response
    import _typeshed as ts
else:
    from .compat import Response

if typing.TYPE_CHECKING:
    from .ctx import AppContext

if DEBUG:
    from .debug import trace


class Blueprint:
    from .scaffold import Scaffold

    def register(self, app):
        from .globals import current_app
        if TYPE_CHECKING:
            from .sansio import App

        def inner():
            import json


def main():
    import click
`);
    expect(result.imports.map((entry) => [entry.specifier, entry.kind, entry.line])).to.deep.equal([
      ['typing', 'python', 2],
      ['typing', 'python', 3],
      ['.app', 'python', 4],
      ['.wrappers', 'type-only', 7],
      ['_typeshed', 'type-only', 8],
      ['.compat', 'python', 10],
      ['.ctx', 'type-only', 13],
      ['.debug', 'python', 16],
      ['.scaffold', 'python', 20],
      ['.globals', 'deferred', 23],
      ['.sansio', 'type-only', 25],
      ['json', 'deferred', 28],
      ['click', 'deferred', 32],
    ]);
  });
});
