/**
 * Citations of the protocol document: every "docs/protocol.md, <Section>" in a committed file names a heading of
 * docs/protocol.md, and no committed file points outside the repository (a clone is all a user has).
 */
import { describe, expect, test } from 'vitest';
import { markdownHeadings, readRepositoryText, repositoryTextFiles } from './repositoryFiles.js';

const PROTOCOL_PATH = 'docs/protocol.md';
/** This file quotes citations as examples; it is not searched for them. */
const THIS_FILE = 'test/docs/protocolCitations.test.ts';

/** Comment continuations (` * `, `// `, `/// `) joined, so a citation wrapped over two comment lines reads as one. */
function joinCommentLines(text: string): string {
  return text
    .replace(/\n[ \t]*(?:\*(?!\/)|\/\/\/?)[ \t]?/g, ' ')
    .replace(/\n/g, ' ')
    .replace(/[ \t]+/g, ' ');
}

/** The text after each "docs/protocol.md, " in `text`, up to 80 characters. */
function citationsIn(text: string): string[] {
  const joined = joinCommentLines(text);
  return [...joined.matchAll(/docs\/protocol\.md, (.{0,80})/g)].map((match) => match[1] ?? '');
}

/** The longest heading the citation starts with, followed by a non-word character or the end; undefined if none. */
export function citedHeading(citation: string, headings: readonly string[]): string | undefined {
  const matching = headings.filter(
    (heading) => citation.startsWith(heading) && !/^[\w-]/.test(citation.slice(heading.length)),
  );
  return matching.sort((a, b) => b.length - a.length)[0];
}

const files = repositoryTextFiles();
const texts = files
  .map((path) => [path, readRepositoryText(path)] as const)
  .filter((entry): entry is readonly [string, string] => entry[1] !== undefined);
const headings = markdownHeadings(texts.find(([path]) => path === PROTOCOL_PATH)?.[1] ?? '');

describe(`citations of ${PROTOCOL_PATH}`, () => {
  test('the document has its sections', () => {
    expect(headings).toContain('Wire encoding');
    expect(new Set(headings).size, 'every heading is unique, so a citation names one section').toBe(headings.length);
  });

  test('every citation names a heading', () => {
    const unknown: string[] = [];
    let cited = 0;
    for (const [path, text] of texts) {
      if (path === THIS_FILE) continue;
      for (const citation of citationsIn(text)) {
        if (citation.startsWith('<')) continue; // the placeholder in the document's own introduction
        cited += 1;
        if (citedHeading(citation, headings) === undefined) unknown.push(`${path}: "${PROTOCOL_PATH}, ${citation}"`);
      }
    }
    expect(unknown, `citations naming no heading of ${PROTOCOL_PATH}`).toEqual([]);
    expect(cited).toBeGreaterThan(40);
  });

  test('a citation matches the longest heading it starts with, at a word boundary', () => {
    const sample = ['Chain', 'Proofs', 'Proof windows and prunes', 'Fees', 'L1 fees'];
    expect(citedHeading('Proof windows and prunes), as', sample)).toBe('Proof windows and prunes');
    expect(citedHeading('Proofs; spec/proof.ts', sample)).toBe('Proofs');
    expect(citedHeading('Chain: a checkpoint', sample)).toBe('Chain');
    expect(citedHeading('Chains', sample)).toBeUndefined();
    expect(citedHeading('Transactions', sample)).toBeUndefined();
  });

  test('a citation wrapped over comment lines is read whole', () => {
    expect(citationsIn('/**\n * see (docs/protocol.md, Attestations and\n * quorum) here\n */')[0]).toMatch(
      /^Attestations and quorum\)/,
    );
  });
});

describe('no committed file points outside the repository', () => {
  // Spelled in pieces so that this file does not match itself.
  const outside = [`..${'/'}shared`, `PROTOCOL${'.'}md`, `/work${'/'}shared`];

  test.each(outside)('nothing refers to %s', (needle) => {
    const referring = texts.filter(([, text]) => text.includes(needle)).map(([path]) => path);
    expect(referring).toEqual([]);
  });
});
