// Parses a source with tree-sitter and returns its visible nodes as one Int32Array, in the order a
// cursor visits them: the walk happens here, in one call, instead of one call into the runtime per
// node from JavaScript (index.ts reads the array). Offsets and columns are UTF-16 code units, as
// node-tree-sitter reports them, since the source is parsed as the JavaScript string's own UTF-16.
#include <node_api.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

// tree-sitter's internals, for walking the subtrees (the runtime is compiled into this addon: runtime.c)
#include "language.h"
#include "length.h"
#include "subtree.h"
#include "tree.h"

// Must match index.ts: the int32 fields of one node.
enum {
  F_SYMBOL, F_FLAGS, F_FIELD, F_START, F_END, F_START_ROW, F_START_COL, F_END_ROW, F_END_COL,
  F_PARENT, F_NEXT, F_PREV, F_CHILDREN, STRIDE
};
enum { NAMED = 1, MISSING = 2, EXTRA = 4, HAS_ERROR = 8, IS_ERROR = 16 };

typedef struct {
  TSParser *parser;
} Instance;

#define CHECK(call)                                                                              \
  do {                                                                                           \
    if ((call) != napi_ok) return NULL;                                                          \
  } while (0)

static napi_value fail(napi_env env, const char *message) {
  napi_throw_error(env, NULL, message);
  return NULL;
}

// The TSLanguage of a grammar module's export (`require('tree-sitter-python')`): its `language` external.
static const TSLanguage *language_of(napi_env env, napi_value grammar) {
  napi_value external;
  napi_valuetype type;
  void *data = NULL;
  if (napi_get_named_property(env, grammar, "language", &external) != napi_ok) return NULL;
  if (napi_typeof(env, external, &type) != napi_ok || type != napi_external) return NULL;
  if (napi_get_value_external(env, external, &data) != napi_ok) return NULL;
  return (const TSLanguage *)data;
}

static void free_instance(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  Instance *instance = data;
  if (instance->parser) ts_parser_delete(instance->parser);
  free(instance);
}

// The nodes as they are written: into the JavaScript buffer made for the count tree-sitter gives
// (`ts_node_descendant_count`), or, should the walk meet more, into memory of our own (`owned`).
typedef struct {
  int32_t *nodes;
  size_t count;
  size_t capacity;
  int owned;
} Nodes;

// Appends one visible node: `subtree` starting at `position` (after its padding), shown as `alias` when non-zero.
static int32_t push(Nodes *out, const TSLanguage *language, Subtree subtree, Length position, TSSymbol alias,
                    TSFieldId field, int32_t parent, int32_t prev) {
  if (out->count == out->capacity) {
    size_t capacity = out->capacity ? out->capacity * 2 : 1024;
    int32_t *grown = out->owned ? realloc(out->nodes, capacity * STRIDE * sizeof(int32_t))
                                : malloc(capacity * STRIDE * sizeof(int32_t));
    if (!grown) return -1;
    if (!out->owned && out->count) memcpy(grown, out->nodes, out->count * STRIDE * sizeof(int32_t));
    out->nodes = grown;
    out->capacity = capacity;
    out->owned = 1;
  }
  int32_t index = (int32_t)out->count++;
  int32_t *n = out->nodes + (size_t)index * STRIDE;
  Length end = length_add(position, ts_subtree_size(subtree));
  // as ts_node_symbol, ts_node_is_named, ts_node_is_missing, ts_node_is_extra, ts_node_has_error, ts_node_is_error
  TSSymbol symbol = ts_language_public_symbol(language, alias ? alias : ts_subtree_symbol(subtree));
  bool named = alias ? ts_language_symbol_metadata(language, alias).named : ts_subtree_named(subtree);
  n[F_SYMBOL] = symbol;
  n[F_FLAGS] = (named ? NAMED : 0) | (ts_subtree_missing(subtree) ? MISSING : 0) |
               (ts_subtree_extra(subtree) ? EXTRA : 0) | (ts_subtree_error_cost(subtree) > 0 ? HAS_ERROR : 0) |
               (symbol == ts_builtin_sym_error ? IS_ERROR : 0);
  n[F_FIELD] = field;
  n[F_START] = (int32_t)(position.bytes / 2);
  n[F_END] = (int32_t)(end.bytes / 2);
  n[F_START_ROW] = (int32_t)position.extent.row;
  n[F_START_COL] = (int32_t)(position.extent.column / 2);
  n[F_END_ROW] = (int32_t)end.extent.row;
  n[F_END_COL] = (int32_t)(end.extent.column / 2);
  n[F_PARENT] = parent;
  n[F_NEXT] = -1;
  n[F_PREV] = prev;
  n[F_CHILDREN] = 0;
  if (prev >= 0) out->nodes[(size_t)prev * STRIDE + F_NEXT] = index;
  if (parent >= 0) out->nodes[(size_t)parent * STRIDE + F_CHILDREN] += 1;
  return index;
}

// One subtree's children being walked. A hidden subtree's visible descendants are its visible ancestor's
// children: `owner` is the frame of that ancestor, which keeps its node and the last child written.
typedef struct {
  const Subtree *children;
  uint32_t count, index, structural;
  const TSSymbol *aliases;
  const TSFieldMapEntry *fields, *fields_end;
  Length position;      // where children[index] starts
  uint32_t owner;       // the frame of the visible node these children belong to
  int32_t node, last;   // (owner frames) the node, and its last child written so far
  TSFieldId inherited;  // (hidden frames) the field a visible descendant without its own field takes
} Frame;

// Pushes a frame for `subtree`'s children. `owner` is the frame of the visible node they belong to; UINT32_MAX
// when `subtree` is that node itself (the new frame owns them, `node` its index in the output).
static int enter(Frame **frames, size_t *depth, size_t *capacity, const TSLanguage *language, Subtree subtree,
                 Length position, uint32_t owner, int32_t node, TSFieldId inherited) {
  if (*depth == *capacity) {
    Frame *grown = realloc(*frames, (*capacity *= 2) * sizeof(Frame));
    if (!grown) return 0;
    *frames = grown;
  }
  Frame *f = *frames + (*depth)++;
  f->children = ts_subtree_children(subtree);
  f->count = subtree.ptr->child_count;
  f->index = f->structural = 0;
  f->aliases = ts_language_alias_sequence(language, subtree.ptr->production_id);
  ts_language_field_map(language, subtree.ptr->production_id, &f->fields, &f->fields_end);
  f->position = position;
  f->owner = owner == UINT32_MAX ? (uint32_t)(*depth - 1) : owner;
  f->node = node;
  f->last = -1;
  f->inherited = inherited;
  return 1;
}

// Every visible node in the order a TSTreeCursor visits them, with the same symbol, flags, field and positions
// (tree_cursor.c: a child is visible when its subtree is or its parent's production aliases it; a hidden child is
// entered when it has visible children; a node's field is its own entry in its parent's field map, else that of
// its nearest hidden ancestor that has one, up to the first visible or extra ancestor). Walking the subtrees
// directly saves the cursor's per-node work (building a TSNode, re-reading the alias and walking up for the field).
static int flatten(TSTree *tree, Nodes *out) {
  const TSLanguage *language = tree->language;
  Subtree root = tree->root;
  Length position = ts_subtree_padding(root);
  int32_t root_index = push(out, language, root, position, 0, 0, -1, -1);
  if (root_index < 0) return 0;
  if (ts_subtree_child_count(root) == 0) return 1;
  size_t depth = 0, capacity = 64;
  Frame *frames = malloc(capacity * sizeof(Frame));
  int ok = frames && enter(&frames, &depth, &capacity, language, root, position, UINT32_MAX, root_index, 0);
  while (ok && depth > 0) {
    Frame *f = frames + depth - 1;
    if (f->index == f->count) {
      depth--;
      continue;
    }
    Subtree child = f->children[f->index++];
    Length start = f->position;
    f->position = length_add(f->position, ts_subtree_size(child));
    if (f->index < f->count) f->position = length_add(f->position, ts_subtree_padding(f->children[f->index]));
    bool extra = ts_subtree_extra(child);
    TSSymbol alias = 0;
    TSFieldId field = 0;
    if (!extra) {
      uint32_t structural = f->structural++;
      if (f->aliases) alias = f->aliases[structural];
      for (const TSFieldMapEntry *map = f->fields; map < f->fields_end; map++) {
        if (!map->inherited && map->child_index == structural) {
          field = map->field_id;
          break;
        }
      }
      if (!field) field = f->inherited;
    }
    uint32_t owner = f->owner;
    if (ts_subtree_visible(child) || alias) {
      Frame *o = frames + owner;
      int32_t index = push(out, language, child, start, alias, field, o->node, o->last);
      if (index < 0) ok = 0;
      else {
        o->last = index;
        if (ts_subtree_child_count(child) > 0)
          ok = enter(&frames, &depth, &capacity, language, child, start, UINT32_MAX, index, 0);
      }
    } else if (ts_subtree_visible_child_count(child) > 0) {
      ok = enter(&frames, &depth, &capacity, language, child, start, owner, -1, extra ? 0 : field);
    }
  }
  free(frames);
  return ok;
}

// parse(grammar, source: string, scratch?: Int32Array): Int32Array of STRIDE fields per node, the root first.
// When `scratch` holds them the nodes are written into its buffer and the answer is a view of it (no allocation:
// the caller lends a buffer no tree reads any more); otherwise into a new buffer.
static napi_value parse(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 2) return fail(env, "parse(grammar, source) takes two arguments");
  const TSLanguage *language = language_of(env, argv[0]);
  if (!language) return fail(env, "parse: the grammar has no `language` external (a tree-sitter grammar module)");
  size_t length = 0;
  if (napi_get_value_string_utf16(env, argv[1], NULL, 0, &length) != napi_ok)
    return fail(env, "parse: the source must be a string");
  Instance *instance = NULL;
  CHECK(napi_get_instance_data(env, (void **)&instance));
  if (ts_parser_language(instance->parser) != language && !ts_parser_set_language(instance->parser, language))
    return fail(env, "parse: the grammar's ABI version is not one this tree-sitter runtime reads");
  char16_t *text = malloc((length + 1) * sizeof(char16_t));
  if (!text) return fail(env, "parse: out of memory");
  if (napi_get_value_string_utf16(env, argv[1], text, length + 1, &length) != napi_ok) {
    free(text);
    return NULL;
  }
  TSTree *tree = ts_parser_parse_string_encoding(instance->parser, NULL, (const char *)text,
                                                 (uint32_t)(length * sizeof(char16_t)), TSInputEncodingUTF16LE);
  free(text);
  if (!tree) return fail(env, "parse: tree-sitter returned no tree");
  napi_value buffer, array;
  void *bytes = NULL;
  size_t expected = ts_node_descendant_count(ts_tree_root_node(tree));
  bool is_typedarray = false, lent = false;
  size_t scratch_length = 0, offset = 0;
  napi_typedarray_type scratch_type = napi_int8_array;
  if (argc >= 3 && napi_is_typedarray(env, argv[2], &is_typedarray) == napi_ok && is_typedarray &&
      napi_get_typedarray_info(env, argv[2], &scratch_type, &scratch_length, &bytes, &buffer, &offset) == napi_ok)
    lent = scratch_type == napi_int32_array && scratch_length >= expected * STRIDE;
  if (!lent) {
    // a buffer of its own: the scratch (if any) is too small
    offset = 0;
    if (napi_create_arraybuffer(env, expected * STRIDE * sizeof(int32_t), &bytes, &buffer) != napi_ok) {
      ts_tree_delete(tree);
      return NULL;
    }
  }
  Nodes out = {bytes, 0, expected, 0};
  int ok = flatten(tree, &out);
  ts_tree_delete(tree);
  if (!ok) {
    if (out.owned) free(out.nodes);
    return fail(env, "parse: out of memory");
  }
  if (out.owned) {
    size_t size = out.count * STRIDE * sizeof(int32_t);
    if (napi_create_arraybuffer(env, size, &bytes, &buffer) != napi_ok) {
      free(out.nodes);
      return NULL;
    }
    memcpy(bytes, out.nodes, size);
    free(out.nodes);
    offset = 0;
  }
  CHECK(napi_create_typedarray(env, napi_int32_array, out.count * STRIDE, buffer, offset, &array));
  return array;
}

// release(array): detaches the array's buffer, which frees its memory now rather than at some later GC (V8 counts
// it as external memory, and a thread parsing fast can hold tens of MB of dead trees). Views read 0 elements after.
static napi_value release(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], buffer;
  bool is_typedarray = false;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 1 || napi_is_typedarray(env, argv[0], &is_typedarray) != napi_ok || !is_typedarray)
    return fail(env, "release: expects the Int32Array parse returned");
  CHECK(napi_get_typedarray_info(env, argv[0], NULL, NULL, NULL, &buffer, NULL));
  bool detached = false;
  CHECK(napi_is_detached_arraybuffer(env, buffer, &detached));
  if (!detached) CHECK(napi_detach_arraybuffer(env, buffer));
  return NULL;
}

// names(grammar): [symbol names by id, field names by id] (index 0 of fields is '').
static napi_value names(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  const TSLanguage *language = argc ? language_of(env, argv[0]) : NULL;
  if (!language) return fail(env, "names: the grammar has no `language` external (a tree-sitter grammar module)");
  napi_value symbols, fields, result, value;
  uint32_t symbol_count = ts_language_symbol_count(language);
  uint32_t field_count = ts_language_field_count(language);
  CHECK(napi_create_array_with_length(env, symbol_count, &symbols));
  for (uint32_t id = 0; id < symbol_count; id++) {
    const char *name = ts_language_symbol_name(language, (TSSymbol)id);
    CHECK(napi_create_string_utf8(env, name ? name : "", NAPI_AUTO_LENGTH, &value));
    CHECK(napi_set_element(env, symbols, id, value));
  }
  CHECK(napi_create_array_with_length(env, field_count + 1, &fields));
  for (uint32_t id = 0; id <= field_count; id++) {
    const char *name = id ? ts_language_field_name_for_id(language, (TSFieldId)id) : "";
    CHECK(napi_create_string_utf8(env, name ? name : "", NAPI_AUTO_LENGTH, &value));
    CHECK(napi_set_element(env, fields, id, value));
  }
  CHECK(napi_create_array_with_length(env, 2, &result));
  CHECK(napi_set_element(env, result, 0, symbols));
  CHECK(napi_set_element(env, result, 1, fields));
  return result;
}

NAPI_MODULE_INIT() {
  Instance *instance = calloc(1, sizeof(Instance));
  if (!instance || !(instance->parser = ts_parser_new())) return fail(env, "flat-tree: out of memory");
  CHECK(napi_set_instance_data(env, instance, free_instance, NULL));
  napi_value fn;
  CHECK(napi_create_function(env, "parse", NAPI_AUTO_LENGTH, parse, NULL, &fn));
  CHECK(napi_set_named_property(env, exports, "parse", fn));
  CHECK(napi_create_function(env, "release", NAPI_AUTO_LENGTH, release, NULL, &fn));
  CHECK(napi_set_named_property(env, exports, "release", fn));
  CHECK(napi_create_function(env, "names", NAPI_AUTO_LENGTH, names, NULL, &fn));
  CHECK(napi_set_named_property(env, exports, "names", fn));
  return exports;
}
