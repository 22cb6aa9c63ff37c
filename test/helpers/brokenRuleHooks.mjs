// The load hook of the broken-rule preloads (test/helpers/broken*.mjs): it rewrites one line of one core module, as
// the preload's `data` says ({ file, line: a RegExp source, replacement }). Fails the import when the line is not
// found (the rule moved: update the preload with it).
let rule;

export function initialize(data) {
  rule = { file: data.file, line: new RegExp(data.line), replacement: data.replacement, name: data.name };
}

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!url.startsWith('file:') || !new URL(url).pathname.endsWith(rule.file)) return loaded;
  const source = String(loaded.source);
  if (!rule.line.test(source)) throw new Error(`${rule.name}: the rule's line is not in ${url}`);
  return { ...loaded, source: source.replace(rule.line, rule.replacement) };
}
