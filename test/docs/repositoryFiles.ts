/** The repository's own files, read from disk for the documentation tests (no git needed). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Folders that hold no committed source: installed, built or generated at run time (see .gitignore). */
const IGNORED_FOLDERS = new Set(['.git', 'node_modules', 'dist', '.data', 'sim-out']);

/** Files whose text the documentation tests read. */
const TEXT_FILE_PATTERN = /\.(ts|mjs|js|sol|md|json)$/;

/** Files above this size are generated artifacts (bytecode, lock files), never prose or comments. */
const TEXT_FILE_BYTES_MAX = 1024 * 1024;

/** Every text file of the repository, as paths relative to the root with `/` separators, sorted. */
export function repositoryTextFiles(): string[] {
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!IGNORED_FOLDERS.has(entry.name)) walk(join(folder, entry.name));
      } else if (entry.isFile() && TEXT_FILE_PATTERN.test(entry.name)) {
        files.push(relative(REPOSITORY_ROOT, join(folder, entry.name)).split('\\').join('/'));
      }
    }
  };
  walk(REPOSITORY_ROOT);
  return files.sort();
}

/** A repository file's text, or undefined when it is too large to be anything but an artifact. */
export function readRepositoryText(path: string): string | undefined {
  const text = readFileSync(join(REPOSITORY_ROOT, path), 'utf8');
  return text.length > TEXT_FILE_BYTES_MAX ? undefined : text;
}

/** Whether a file or folder exists at `path` (relative to the root). */
export function repositoryPathExists(path: string): boolean {
  return existsSync(join(REPOSITORY_ROOT, path));
}

/** The headings of a Markdown text (any level), without their `#` marks; fenced code is skipped. */
export function markdownHeadings(markdown: string): string[] {
  const headings: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const match = fenced ? null : /^#{1,6} (.+?)\s*$/.exec(line);
    if (match?.[1] !== undefined) headings.push(match[1]);
  }
  return headings;
}
