/**
 * Codex's apply_patch tool takes one patch text (`*** Begin Patch` … `*** End Patch`) whose file
 * headers name what it changes: `*** Add File: P`, `*** Update File: P`, `*** Delete File: P`, and
 * `*** Move to: P` under an update (a rename). The risk engine judges every one of them.
 */
type Json = Record<string, unknown>;

const FILE_HEADER = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm;

/** The patch, every file it touches (`files`) and the first as `file_path`. */
export function patchArguments(patch: string): Json {
  const files = [...new Set([...patch.matchAll(FILE_HEADER)].map((m) => (m[1] ?? '').trim()).filter((f) => f !== ''))];
  return { patch, files, ...(files[0] ? { file_path: files[0] } : {}) };
}
