{
  "variables": {
    "ts_dir": "<!(node -p \"require('path').dirname(require.resolve('tree-sitter/package.json'))\")"
  },
  "targets": [
    {
      "target_name": "flat_tree",
      "sources": ["src/flat_tree.c", "src/runtime.c"],
      "include_dirs": ["<(ts_dir)/vendor/tree-sitter/lib/include", "<(ts_dir)/vendor/tree-sitter/lib/src"],
      "cflags_c": ["-std=c11", "-fvisibility=hidden"],
      "defines": ["_POSIX_C_SOURCE=200112L", "_DEFAULT_SOURCE", "NAPI_VERSION=8"]
    }
  ]
}
