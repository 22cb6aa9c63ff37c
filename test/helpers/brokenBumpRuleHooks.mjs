// The load hook of test/helpers/brokenBumpRule.mjs: the pool's bump rule returns the pooled fee itself, so an equal
// fee replaces. Fails the import when the rule's line is not found (the rule moved: update this hook with it).
const RULE_FILE = '/core/txPool/txPriority.ts';
const RULE_LINE = /return pooledPriorityFee \+ \(bump > 1n \? bump : 1n\);/;

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!url.startsWith('file:') || !new URL(url).pathname.endsWith(RULE_FILE)) return loaded;
  const source = String(loaded.source);
  if (!RULE_LINE.test(source)) throw new Error(`brokenBumpRule: the bump rule's line is not in ${url}`);
  return { ...loaded, source: source.replace(RULE_LINE, 'return pooledPriorityFee;') };
}
